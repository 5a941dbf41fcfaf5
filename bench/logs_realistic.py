"""Held-out log styles modelled on real formats none of the bench's other generators write:
OpenSSH, OpenStack compute, Proxifier, Android logcat, Linux syslog and kernel, Apache
error, macOS kernel and daemons, and a phone health app's step counter (deterministic:
seeded), written for this project from what those formats look like in the field.

    realistic_corpus("openssh", 2000) → [(message, template id), ...]

They are held out like ``bench/logs_heldout.py``'s styles (reported apart by
``bench/logs_eval.py``, never scored while rules or settings are chosen) and follow the
labelling of the public log-parsing benchmarks the project is measured on:

* a value is a variable whatever its shape: user names (``root`` in most lines, a few
  dozen others), host names, component tags of several words, lifetimes written
  ``<1 sec`` or ``00:02``, Android package names and quoted tags;
* words that tell events apart are constants, also when only they differ: the HTTP method
  of an OpenStack API line (``"GET …"`` and ``"DELETE …"`` are two templates), the
  lifecycle event of an instance (``VM Started`` / ``VM Paused``), the proxy protocol
  (``HTTPS`` / ``SOCKS5``), ``opened`` / ``closed``, ``acquire`` / ``release``;
* value pools are skewed as in real logs (one attacker address, one user, one tag in most
  lines), so some variables take few values in a sample.
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["REALISTIC_STYLES", "realistic_corpus"]

_SSH_USERS: Final = (
    "admin",
    "test",
    "oracle",
    "guest",
    "user",
    "ftpuser",
    "postgres",
    "ubuntu",
    "pi",
    "git",
    "support",
    "nagios",
    "mysql",
    "webmaster",
    "tomcat",
    "hadoop",
    "deploy",
    "jenkins",
    "backup",
    "operator",
)
_LOCAL_USERS: Final = ("root", "cyrus", "news", "test", "mail", "games", "ftp")
_TAGS: Final = (
    '"View Lock"',
    '"*launch*"',
    '"WindowManager"',
    '"RILJ_ACK_WL"',
    '"AudioMix"',
    '"*alarm*"',
    '"NetworkStats"',
    '"GCM_CONN_ALARM"',
)
_PACKAGES: Final = make_pool(
    51,
    24,
    lambda rng: f"com.{make_name(rng)}.{make_name(rng)}" + rng.choice(("", ".app", ".service")),
)
_ACTIVITIES: Final = make_pool(52, 16, lambda rng: make_name(rng).capitalize() + "Activity")
_HOSTS: Final = make_pool(53, 8, lambda rng: f"cp-{rng.randrange(1, 9)}.{make_name(rng)}.cloud")
_SITES: Final = (
    "www.google.com",
    "play.google.com",
    "clients1.google.com",
    "api.weibo.com",
    "www.baidu.com",
    "proxy.cse.cuhk.edu.hk",
    "s.youtube.com",
    "mtalk.google.com",
    "qa.sockets.stackexchange.com",
    "ssl.gstatic.com",
)
_ACTIONS: Final = (
    "android.intent.action.SCREEN_ON",
    "android.intent.action.SCREEN_OFF",
    "android.intent.action.TIME_TICK",
    "android.intent.action.USER_PRESENT",
    "android.intent.action.BATTERY_CHANGED",
)
_SERVICES: Final = ("syslogd", "klogd", "irqbalance", "portmap", "cups", "sshd", "xinetd", "gpm")
_DAEMONS: Final = make_pool(54, 14, lambda rng: make_name(rng) + rng.choice(("d", "agent", "")))
_DAYS: Final = ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat")
_MONTHS: Final = ("Jun", "Jul", "Aug")


def _skewed(rng: random.Random, head: str, tail: tuple[str, ...], share: float) -> str:
    """``head`` in about ``share`` of the draws, else one of ``tail``."""
    return head if rng.random() < share else rng.choice(tail)


def _lifetime(rng: random.Random) -> str:
    draw = rng.random()
    if draw < 0.35:
        return "<1 sec"
    if draw < 0.9:
        return f"{rng.randrange(60):02d}:{rng.randrange(60):02d}"
    return f"{rng.randrange(1, 24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"


def _target(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return f"{base_slot(rng, 'ip')}:{rng.choice((80, 443, 5070))}"
    return f"{rng.choice(_SITES)}:{rng.choice((80, 443, 443, 5070))}"


def _api_path(rng: random.Random) -> str:
    tenant = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    tails = ("servers/detail", f"servers/{base_slot(rng, 'uuid')}", "os-server-external-events")
    return f"/v2/{tenant}/{rng.choice(tails)} HTTP/1.1"


def _ctime(rng: random.Random) -> str:
    return (
        f"{rng.choice(_DAYS)} {rng.choice(_MONTHS)} {rng.randrange(1, 29):2d} "
        f"{base_slot(rng, 'time')} 2005"
    )


def _slot(rng: random.Random, kind: str) -> str:  # one branch per slot type
    if kind == "sshuser":
        return _skewed(rng, "root", _SSH_USERS, 0.6)
    if kind == "localuser":
        return _skewed(rng, "root", _LOCAL_USERS, 0.5)
    if kind == "rdns":
        octets = base_slot(rng, "ip").replace(".", "-")
        return f"{octets}.{rng.choice(('static', 'dyn', 'adsl'))}.{make_name(rng)}.net"
    if kind == "reason":
        return rng.choice(("11", "3"))
    if kind == "lifetime":
        return _lifetime(rng)
    if kind == "target":
        return _target(rng)
    if kind == "apipath":
        return _api_path(rng)
    if kind == "node":
        return rng.choice(_HOSTS)
    if kind == "sha":
        return "".join(rng.choice("0123456789abcdef") for _ in range(40))
    if kind == "tag":
        return _skewed(rng, _TAGS[0], _TAGS[1:], 0.5)
    if kind == "package":
        return rng.choice(_PACKAGES)
    if kind == "activity":
        return f"{rng.choice(_PACKAGES)}/.{rng.choice(_ACTIVITIES)}"
    if kind == "bool":
        return rng.choice(("true", "false"))
    if kind == "action":
        return rng.choice(_ACTIONS)
    if kind == "service":
        return rng.choice(_SERVICES)
    if kind == "ctime":
        return _ctime(rng)
    if kind == "small":
        return str(rng.randrange(0, 8))
    if kind == "addr":
        return f"{rng.randrange(16**16):016x}"
    if kind == "phase":
        return rng.choice(("Sleep", "Wake"))
    if kind == "wake":
        return rng.choice(("EC.LidOpen (User)", "RTC (Alarm)", "XHC1", "?", "ARPT (Network)"))
    if kind == "daemon":
        return rng.choice(_DAEMONS)
    if kind == "klass":
        return make_name(rng).capitalize() + rng.choice(("Manager", "Controller", "Proxy"))
    if kind == "file":
        return "/System/Library/" + "/".join(make_name(rng) for _ in range(rng.randrange(1, 4)))
    if kind == "stamp":
        return str(1514038530000 + rng.randrange(10**7))
    return base_slot(rng, kind)


REALISTIC_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "openssh": (
        "Failed password for {sshuser} from {ip} port {port} ssh2",
        "Failed password for invalid user {sshuser} from {ip} port {port} ssh2",
        "Accepted password for {sshuser} from {ip} port {port} ssh2",
        "Invalid user {sshuser} from {ip}",
        "input_userauth_request: invalid user {sshuser} [preauth]",
        "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= "
        "rhost={ip}  user={sshuser}",
        "pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= "
        "rhost={ip}",
        "pam_unix(sshd:auth): check pass; user unknown",
        "pam_unix(sshd:session): session opened for user {sshuser} by (uid={int})",
        "pam_unix(sshd:session): session closed for user {sshuser}",
        "Received disconnect from {ip}: {reason}: Bye Bye [preauth]",
        "Received disconnect from {ip}: {reason}: disconnected by user",
        "Connection closed by {ip} [preauth]",
        "Did not receive identification string from {ip}",
        "reverse mapping checking getaddrinfo for {rdns} [{ip}] failed - POSSIBLE BREAK-IN "
        "ATTEMPT!",
        "Address {ip} maps to {rdns}, but this does not map back to the address - POSSIBLE "
        "BREAK-IN ATTEMPT!",
        "message repeated {small} times: [ Failed password for {sshuser} from {ip} port {port} "
        "ssh2]",
        "PAM {small} more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= "
        "rhost={ip}  user={sshuser}",
        "PAM service(sshd) ignoring max retries; {small} > 3",
        "Disconnecting: Too many authentication failures for {sshuser} [preauth]",
        "error: Received disconnect from {ip}: 3: com.jcraft.jsch.JSchException: Auth fail "
        "[preauth]",
    ),
    "openstack": (
        '{ip} "GET {apipath}" status: {int} len: {int} time: {float}',
        '{ip} "POST {apipath}" status: {int} len: {int} time: {float}',
        '{ip} "DELETE {apipath}" status: {int} len: {int} time: {float}',
        "[instance: {uuid}] VM Started (Lifecycle Event)",
        "[instance: {uuid}] VM Paused (Lifecycle Event)",
        "[instance: {uuid}] VM Resumed (Lifecycle Event)",
        "[instance: {uuid}] VM Stopped (Lifecycle Event)",
        "[instance: {uuid}] Took {float} seconds to spawn the instance on the hypervisor.",
        "[instance: {uuid}] Took {float} seconds to build instance.",
        "[instance: {uuid}] Took {float} seconds to destroy the instance on the hypervisor.",
        "[instance: {uuid}] Attempting claim: memory {int} MB, disk {int} GB, vcpus {int} CPU",
        "[instance: {uuid}] Total memory: {int} MB, used: {float} MB",
        "[instance: {uuid}] Total disk: {int} GB, used: {float} GB",
        "[instance: {uuid}] Claim successful",
        "[instance: {uuid}] Creating image",
        "[instance: {uuid}] Terminating instance",
        "[instance: {uuid}] Instance destroyed successfully.",
        "[instance: {uuid}] Deleting instance files /var/lib/nova/instances/{uuid}_del",
        "Active base files: /var/lib/nova/instances/_base/{sha}",
        "image {uuid} at (/var/lib/nova/instances/_base/{sha}): checking",
        "Compute_service record updated for {node}",
        "Auditing locally available compute resources for node {node}",
        "Final resource view: name={node} phys_ram={int}MB used_ram={int}MB phys_disk={int}GB "
        "used_disk={int}GB total_vcpus={int} used_vcpus={int} pci_stats=[]",
        "Total usable vcpus: {int}, total allocated vcpus: {int}",
        "The instance sync for host '{node}' did not match. Re-created its InstanceList.",
    ),
    "proxifier": (
        "{target} open through proxy {target} HTTPS",
        "{target} open through proxy {target} SOCKS5",
        "{target} close, {int} bytes sent, {int} bytes received, lifetime {lifetime}",
        "{target} close, {int} bytes ({float} KB) sent, {int} bytes received, lifetime {lifetime}",
        "{target} close, {int} bytes sent, {int} bytes ({float} KB) received, lifetime {lifetime}",
        "{target} close, {int} bytes ({float} KB) sent, {int} bytes ({float} KB) received, "
        "lifetime {lifetime}",
        "{target} error : Could not connect to proxy {target} - connection attempt failed with "
        "error {int}",
        "{target} error : A connection request was canceled before the completion.",
    ),
    "android": (
        "acquire lock={int}, flags=0x{int}, tag={tag}, name={package}, ws=null, uid={int}, "
        "pid={int}",
        "release lock={int}, flg=0x{int}, tag={tag}, name={package}, ws=null, uid={int}, pid={int}",
        "Animating brightness: target={int}, rate={int}",
        "setBrightness mode={small} brightness={int}",
        "Skipping AppWindowToken{{{addr} token=Token{{{addr} ActivityRecord{{{addr} u0 "
        "{activity} t{int}}}}}}} -- going to hide",
        "Changing focus from Window{{{addr} u0 {activity}}} to null",
        "printFreezingDisplayLogsopening app wtoken = AppWindowToken{{{addr} token=Token{{{addr} "
        "ActivityRecord{{{addr} u0 {activity} t{int}}}}}}}, allDrawn= {bool}, "
        "startingDisplayed = {bool}",
        "visible is system.call.count gt 0",
        "cleanUpApplicationRecord -- {int}",
        "Start proc {int}:{package}/u0a{int} for service {activity}",
        "Killing {int}:{package}/u0a{int} (adj {int}): empty #{int}",
        "getRingerModeInternal",
        "updateLightsLocked, uid={int}, pid={int}",
    ),
    "linux": (
        "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost={rdns}",
        "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost={rdns}  "
        "user={localuser}",
        "check pass; user unknown",
        "session opened for user {localuser} by (uid={int})",
        "session closed for user {localuser}",
        "connection from {ip} ({rdns}) at {ctime}",
        "ANONYMOUS FTP LOGIN FROM {ip}, (anonymous)",
        "Authentication failed from {ip} ({rdns}): Permission denied in replay cache code",
        "Kerberos authentication failed",
        "couldn't authenticate user",
        "{service} startup succeeded",
        "{service} shutdown succeeded",
        "ALERT exited abnormally with [{small}]",
        "BIOS-e820: {addr} - {addr} (usable)",
        "BIOS-e820: {addr} - {addr} (reserved)",
        "audit({float}:{int}): initialized",
        "usbcore: registered new driver {service}",
        "Received SNMP packet(s) from {ip}",
    ),
    "apache": (
        "jk2_init() Found child {int} in scoreboard slot {small}",
        "workerEnv.init() ok /etc/httpd/conf/workers2.properties",
        "mod_jk child workerEnv in error state {small}",
        "[client {ip}] Directory index forbidden by rule: /var/www/html/",
        "jk2_init() Can't find child {int} in scoreboard",
        "mod_jk child init {small} -{small}",
    ),
    "mac": (
        "ARPT: {float}: wl0: MDNS: IPV4 Addr: {ip}",
        "ARPT: {float}: wl0: MDNS: IPV6 Addr: {ipv6}",
        "ARPT: {float}: AirPort_Brcm43xx::powerChange: System {phase}",
        "en0: channel changed to {small}",
        "en0: BSSID changed to {mac}",
        "Wake reason: {wake}",
        "PM response took {int} ms ({int}, {daemon})",
        "hibernate_setup({int}) took {int} ms",
        "IOThunderboltSwitch<{addr}>({addr})::listenerCallback - Thunderbolt HPD packet for "
        "route = {addr} port = {small} unplug = {small}",
        "AppleCamIn::systemWakeCall - messageType = {addr}",
        "Bluetooth -- LE is supported - Disable LE meta event",
        "{daemon}[{int}]: Connection invalid",
        "Sandbox: {daemon}({int}) deny mach-lookup com.apple.{daemon}",
        "objc[{int}]: Class {klass} is implemented in both {file} and {file}. One of the two "
        "will be used.",
    ),
    "health": (
        "onStandStepChanged {int}",
        "onExtend:{stamp} {int} {int} {int}",
        "getTodayTotalDetailSteps = {stamp}##{int}##{int}##{int}##{int}##{int}",
        "REPORT : {int} {int} {int} {int}",
        "processHandleBroadcastAction action:{action}",
        "onReceive action: {action}",
        "flush sensor data",
        "calculateCaloriesWithCache totalCalories={int}",
        "calculateAltitudeWithCache totalAltitude={int}",
        "setGoalNotifiShow isShow={bool}",
        "upLoadOneMinuteDataToEngine time={stamp}",
        "screen status unknown,think screen on",
    ),
}
"""The realistic held-out styles; a slot in braces is a variable of the true template."""


def realistic_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one realistic style with their true template ids."""
    return styled_corpus(style + ":realistic", lines, seed, REALISTIC_STYLES[style], _slot)
