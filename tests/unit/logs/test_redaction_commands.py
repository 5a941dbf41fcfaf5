"""Passwords that a command takes as an argument: by position, after a flag only that
command gives a password, glued to a flag, or piped into a command that reads one."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("htpasswd -b /etc/nginx/.htpasswd admin Zr7!kQ2m", "Zr7!kQ2m"),
    ("htpasswd -bc .htpasswd bob plainlower", "plainlower"),
    ("htpasswd -B -C 12 -b users.db carol C4r0l-pw", "C4r0l-pw"),
    ("htpasswd -nb bob s3cretword", "s3cretword"),
    (r"net use \\fileserver\share Pa55word1 /user:CORP\jdoe", "Pa55word1"),
    (r"net use Z: \\nas01\backup backupPw9 /user:backup /persistent:yes", "backupPw9"),
    (r"NET USE \\fs2\c$ lowerpass /USER:administrator", "lowerpass"),
    ("net user jdoe NewPassw0rd! /add", "NewPassw0rd!"),
    ("wpa_passphrase HomeNet letmein2024", "letmein2024"),
    ("mc alias set s3 https://minio:9000 minioadmin MinioSecret123", "MinioSecret123"),
    ("vault login s.Xy7pQ2mL9kN4rT6w", "Xy7pQ2mL9kN4rT6w"),
    ("rabbitmqctl add_user deploy rabbitpass", "rabbitpass"),
    ("mysqladmin -u root password newrootpw", "newrootpw"),
    ("openssl passwd -6 -salt xyz plainpass", "plainpass"),
    ("sshpass -p rootroot1 scp a.tar root@backup:/srv", "rootroot1"),
    ("openssl enc -aes-256-cbc -k EncK3y99 -in a -out b", "EncK3y99"),
    ("ipmitool -I lanplus -H bmc01 -U ADMIN -P IpmiPw9x chassis status", "IpmiPw9x"),
    ("snmpwalk -v3 -u admin -a SHA -A SnmpAuth1 -x AES -X SnmpPriv2 sw01", "SnmpAuth1"),
    ("snmpwalk -v3 -u admin -a SHA -A SnmpAuth1 -x AES -X SnmpPriv2 sw01", "SnmpPriv2"),
    ("snmpget -v2c -c pr1vC0mm sw01 sysUpTime.0", "pr1vC0mm"),
    ('sqlcmd -S srv -U sa -P SqlCmdPw7 -Q "select 1"', "SqlCmdPw7"),
    ("mosquitto_pub -h broker -u sensor -P M0sqPw!x -t t -m 1", "M0sqPw!x"),
    ("zip -P zipsecret9 out.zip f", "zipsecret9"),
    ("7z a -pZipPw!42 backup.7z dir", "ZipPw!42"),
    ("unrar x -pRarPw555 a.rar", "RarPw555"),
    ("mysql -uroot -p'My Pass 12'", "My Pass 12"),
    ("/usr/bin/mysql -uroot -plowerpw shop", "lowerpw"),
    ("schtasks /create /tn backup /tr b.cmd /ru svc_backup /rp SchTa5kPw", "SchTa5kPw"),
    ("plink -ssh -pw Pl1nkPw root@h", "Pl1nkPw"),
    ("xfreerdp /v:srv /u:admin /p:Rdp!Pw99", "Rdp!Pw99"),
    ("lftp -u deploy,lftpPw22 sftp://h", "lftpPw22"),
    ("echo 'SudoPw!1' | sudo -S apt update", "SudoPw!1"),
    ("echo 'root:RootNew!3' | chpasswd", "RootNew!3"),
    ("echo dckr_pat_Xy9z8W7v6U5t4S3r2Q1p | docker login -u ci --password-stdin", "Xy9z8W7v6U5t"),
    ("printf '%s' plainpw | passwd --stdin bob", "plainpw"),
    ('ConvertTo-SecureString "PsCr3d!x" -AsPlainText -Force', "PsCr3d!x"),
    ('$p = ConvertTo-SecureString -String "lowerpw" -AsPlainText', "lowerpw"),
]

KEEPS = [
    ("htpasswd -D .htpasswd bob", "htpasswd -D .htpasswd bob"),
    ("htpasswd -v users.db carol", "users.db carol"),
    (r"net use Z: \\nas01\backup * /user:backup", "* /user:backup"),
    (r"net use Z: /delete", "net use Z: /delete"),
    ("net user jdoe /add /domain", "net user jdoe /add /domain"),
    ("net user", "net user"),
    ("net income 4200 this quarter", "net income 4200 this quarter"),
    ("mysql -P 3307 -h db -p", "mysql -P 3307 -h db -p"),
    ("unrar x -p- a.rar", "-p- a.rar"),
    ("zip -r out.zip dir", "zip -r out.zip dir"),
    ("snmpwalk -v2c -c $COMMUNITY sw01", "$COMMUNITY"),
    ("sqlcmd -S srv -U sa -P %SQLPW%", "%SQLPW%"),
    ("vault login -method=userpass username=bob", "-method=userpass"),
    ("vault login failed: permission denied", "vault login failed: permission denied"),
    ("echo hello | sudo tee /etc/motd", "echo hello"),
    ("echo done | wc -l", "echo done"),
    ("sshpass -e ssh deploy@h", "sshpass -e ssh"),
    ("openssl enc -d -aes-256-cbc -kfile key.txt", "-kfile key.txt"),
    ("mc alias list", "mc alias list"),
    ("7z x -o/tmp/out a.7z", "-o/tmp/out"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_command_passwords_are_replaced(line: str, secret: str) -> None:
    redacted = Redactor().redact(line)
    assert secret not in redacted, redacted
    assert "<SECRET>" in redacted


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_command_arguments_that_are_no_password_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


PROTOCOL_LEAKS = [
    ("ftp> PASS hunter22", "hunter22"),
    ("<-- PASS s3cretftp", "s3cretftp"),
    ("---> PASS lowerletters", "lowerletters"),
    ("POP3 C: PASS popPass88", "popPass88"),
]
PROTOCOL_KEEPS = [
    ("PASS src/components/App.test.js", "src/components/App.test.js"),
    ("PASS", "PASS"),
    ("PASS 12", "PASS 12"),
    ("Result: PASS (3 checks)", "PASS (3 checks)"),
    (r"PASS tests\unit\test_a.py", r"tests\unit\test_a.py"),
]


@pytest.mark.parametrize(("line", "secret"), PROTOCOL_LEAKS)
def test_protocol_pass_commands_lose_their_password(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), PROTOCOL_KEEPS)
def test_test_runner_pass_lines_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


FTP_USER_LEAKS = [
    ("user alice Sup3rS3cret!", "Sup3rS3cret!"),
    ("  user anonymous guest99", "guest99"),
    ("ftp> user deploy lowerletters", "lowerletters"),
    ("---> USER backup Summer", "Summer"),
    ("open files.example.org\nuser ci 'plain words'\nbinary\nput a.tgz", "plain words"),
    ('lftp -e "user mirror M1rr0r#pw; mirror -R out /in" ftp.example.org', "M1rr0r#pw"),
    ("open nas; user bob p4ssw0rd; bye", "p4ssw0rd"),
]
FTP_USER_KEEPS = [
    ("user alice failed", "user alice failed"),
    ("user alice", "user alice"),
    ("user 1001 1001", "user 1001 1001"),
    ("User bob Disabled", "User bob Disabled"),
    ("user alice logged in from 3 devices", "user alice logged in from 3 devices"),
    ("2026-11-28 user alice v2.1.0", "2026-11-28 user alice v2.1.0"),
    ("user=alice role=admin", "user=alice role=admin"),
]


@pytest.mark.parametrize(("line", "secret"), FTP_USER_LEAKS)
def test_the_password_of_an_ftp_user_command_goes(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), FTP_USER_KEEPS)
def test_a_user_named_in_a_log_line_stays(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
