"""Templates of the seventh set of unseen log styles (``bench/logs_unseen7.py``); a slot in
braces is a variable of the true template, filled by ``bench/logs_unseen7_slots.py``."""

from __future__ import annotations

from typing import Final

__all__ = ["UNSEEN7_STYLES"]

_CASSANDRA: Final = (
    "Compacted ({uuid}) {int} sstables to [{sstables}] to level=0.  {mib} to {mib} (~{pct}% "
    "of original) in {comma}ms.  Read Throughput = {mibs}, Write Throughput = {mibs}, Row "
    "Throughput = ~{comma}/s.  {comma} total partitions merged to {comma}.  Partition merge "
    "counts were {{{merges}}}",
    "Enqueuing flush of {table}: {mib} ({pct}%) on-heap, {kib} ({pct}%) off-heap",
    "Writing Memtable-{table}@{int}({mib} serialized bytes, {int} ops, {pct}%/{pct}% of "
    "on/off-heap limit), flushed range = (min(-9223372036854775808), "
    "max(9223372036854775807)]",
    "Completed flushing {datafile} ({kib}) for commitlog position "
    "CommitLogPosition(segmentId={long}, position={int})",
    "GC for {gcname}: {int} ms for {int} collections, {long} used; max is 8589934592",
    "InetAddress {node} is now DOWN",
    "InetAddress {node} is now UP",
    "Handshaking version with {node}",
    "Node {node} state jump to NORMAL",
    "Initializing {ks}.{table}",
    "Redistributing index summaries",
    "Maximum memory usage reached ({mib}), cannot allocate chunk of {mib}",
    "Read {int} live rows and {int} tombstone cells for query {cql}; token {int} (see "
    "tombstone_warn_threshold)",
    "Batch for [{tables}] is of size {kib}, exceeding specified threshold of 5.000KiB by {kib}.",
    "{int} operations were slow in the last 5000 msecs:",
    "<{cql}>, time {int} msec - slow timeout 500 msec",
    "<{cql}>, was slow {int} times: avg/min/max {int}/{int}/{int} msec - slow timeout 500 msec",
    "Started hinted handoff for host: {uuid} with IP: {node}",
    "Finished hinted handoff of file {uuid}-{long}-1.hints to endpoint {node}: {uuid}",
    "Not marking nodes down due to local pause of {long}ns > 5000000000ns",
    "[repair #{uuid}] session completed successfully",
    "[repair #{uuid}] {table} is fully synced",
    "[repair #{uuid}] Endpoints {node} and {node} have {int} range(s) out of sync for {table}",
)
_JENKINS: Final = (
    "[Pipeline] {step}",
    "[Pipeline] {{",
    "[Pipeline] {{ ({stage})",
    "[Pipeline] }}",
    "[Pipeline] // {step}",
    "Started by user {fullname}",
    "Started by timer",
    "Started by an SCM change",
    "Running on {agent} in {ws}",
    " > git rev-parse --resolve-git-dir {ws}/.git # timeout=10",
    " > git fetch --tags --force --progress -- {repo} +refs/heads/*:refs/remotes/origin/* "
    "# timeout=10",
    "Checking out Revision {sha} (refs/remotes/origin/{branch})",
    'Commit message: "{subject}"',
    " > git checkout -f {sha} # timeout=10",
    "Fetching changes from the remote Git repository",
    "Obtained Jenkinsfile from git {repo}",
    "Archiving artifacts",
    "Recording test results",
    "[Checks API] No suitable checks publisher found.",
    "Sending e-mails to: {mails}",
    "Finished: {result}",
    "[INFO] Downloading from central: {pom}",
    "[INFO] Downloaded from central: {pom} ({kb} at {kb}/s)",
    "[INFO] Building {artifact} {mvnversion}",
    "[INFO] --- maven-surefire-plugin:3.2.2:test (default-test) @ {artifact} ---",
    "[INFO] Tests run: {int}, Failures: 0, Errors: 0, Skipped: {int}, Time elapsed: {float} s "
    "- in {testclass}",
    "[ERROR] Tests run: {int}, Failures: {int}, Errors: {int}, Skipped: {int}, Time elapsed: "
    "{float} s <<< FAILURE! - in {testclass}",
    "[INFO] BUILD SUCCESS",
    "[INFO] BUILD FAILURE",
)
_ALB_TAIL: Final = '"{trace}" "{host}" "{cert}" {prio} {albtime} '
_ALB_LB: Final = "{albtime} app/web-prod/50dc6c495c0c9188 {client}"
_ALB_FORWARD: Final = '"forward" "-" "-" "{target}" "{st}" "-" "-" {tid}'
_ALB_TLS: Final = ' "{ua}" {cipher} {tls} {tg} ' + _ALB_TAIL


def _alb(kind: str, method: str, scheme: str, version: str = "HTTP/1.1") -> str:
    request = f'"{method} {{{scheme}}} {version}"'
    return f"{kind} {_ALB_LB} {{target}} {{t}} {{t}} {{t}} {{st}} {{st}} {{int}} {{int}} {request}"


_ALB: Final = (
    _alb("https", "GET", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("https", "POST", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("h2", "GET", "https", "HTTP/2.0") + _ALB_TLS + _ALB_FORWARD,
    _alb("h2", "POST", "https", "HTTP/2.0") + _ALB_TLS + _ALB_FORWARD,
    _alb("https", "PUT", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("https", "DELETE", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("https", "HEAD", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("https", "OPTIONS", "https") + _ALB_TLS + _ALB_FORWARD,
    _alb("http", "GET", "http")
    + ' "{ua}" - - {tg} '
    + _ALB_TAIL.replace('"{cert}"', '"-"')
    + _ALB_FORWARD,
    "http " + _ALB_LB + ' - 0.000 0.000 0.000 301 - {int} {int} "GET {http} HTTP/1.1" "{ua}" - '
    '- - "{trace}" "-" "-" 0 {albtime} "redirect" "{https}" "-" "-" "-" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' {target} {t} -1 -1 504 - {int} 0 "GET {https} HTTP/1.1"'
    + _ALB_TLS
    + '"forward" "-" "-" "{target}" "-" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' {target} {t} -1 -1 502 - {int} {int} "POST {https} HTTP/1.1"'
    + _ALB_TLS
    + '"forward" "-" "-" "{target}" "-" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' - -1 -1 -1 460 - {int} 0 "GET {https} HTTP/1.1"'
    + _ALB_TLS
    + '"forward" "-" "-" "-" "-" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' - {t} 0.000 0.000 403 - {int} {int} "GET {https} HTTP/1.1"'
    + _ALB_TLS.replace("{tg} ", "- ")
    + '"waf" "-" "-" "-" "-" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' - 0.000 0.000 0.000 503 - {int} {int} "GET {https} HTTP/1.1"'
    + _ALB_TLS.replace("{tg} ", "- ")
    + '"fixed-response" "-" "-" "-" "-" "-" "-" {tid}',
    _alb("https", "GET", "https") + _ALB_TLS + '"authenticate,forward" "-" "-" "{target}" '
    '"{st}" "-" "-" {tid}',
    "https "
    + _ALB_LB
    + ' - 0.000 0.000 0.000 401 - {int} {int} "GET {https} HTTP/1.1"'
    + _ALB_TLS.replace("{tg} ", "- ")
    + '"authenticate" "-" "{autherr}" "-" "-" "-" "-" {tid}',
    "wss "
    + _ALB_LB
    + ' {target} {t} {t} {t} 101 101 {int} {int} "GET {wss} HTTP/1.1"'
    + _ALB_TLS
    + _ALB_FORWARD.replace('"{st}"', '"101"'),
    _alb("https", "POST", "https") + _ALB_TLS + '"forward" "-" "-" "{target}" "{st}" '
    '"Ambiguous" "UndefinedContentLengthSemantics" {tid}',
    "http " + _ALB_LB + ' - -1 -1 -1 400 - 0 {int} "- http://{target}- -" "-" - - - "-" "-" '
    '"-" 0 {albtime} "-" "-" "-" "-" "-" "-" "-" {tid}',
)
_CLIENT: Final = "client @{ptr} {ip}#{port}"
_BIND: Final = (
    "queries: info: " + _CLIENT + " ({qname}): query: {qsame} {qclass} {qtype} {qflags} ({ip})",
    "security: info: " + _CLIENT + " ({qname}): query (cache) '{qsame}/{qtype}/IN' denied "
    "(allow-query-cache did not match)",
    "security: info: " + _CLIENT + " ({zone}): zone transfer '{zsame}/AXFR/IN' denied",
    "lame-servers: info: lame server resolving '{qname}' (in '{zone}'?): {ip}#53",
    "lame-servers: info: {rcode} unexpected RCODE resolving '{qname}/{qtype}/IN': {ip}#53",
    "lame-servers: info: {dnsresult} resolving '{qname}/{qtype}/IN': {ip}#53",
    "general: info: zone {zone}/IN: loaded serial {serial}",
    "notify: info: zone {zone}/IN: sending notifies (serial {serial})",
    "xfer-in: info: transfer of '{zone}/IN' from {ip}#53: Transfer completed: {int} messages, "
    "{int} records, {int} bytes, {secs} secs ({int} bytes/sec) (serial {serial})",
    "xfer-in: info: zone {zone}/IN: Transfer started.",
    "general: info: zone {zone}/IN: transferred serial {serial}",
    "notify: info: " + _CLIENT + ": received notify for zone '{zone}'",
    "xfer-out: info: " + _CLIENT + " ({zone}): transfer of '{zsame}/IN': {xfr} started "
    "(serial {serial})",
    "xfer-out: info: " + _CLIENT + " ({zone}): transfer of '{zsame}/IN': {xfr} ended: {int} "
    "messages, {int} records, {int} bytes, {secs} secs ({int} bytes/sec)",
    "resolver: info: resolver priming query complete",
    "general: info: received control channel command '{rndc}'",
    "general: info: reloading configuration succeeded",
    "general: info: reloading zones succeeded",
    "dnssec: info: managed-keys-zone: Key {int} for zone . is now trusted (acceptance timer "
    "complete)",
    "rate-limit: info: " + _CLIENT + " ({qname}): rate limit drop response to {ip}/24 for "
    "{qsame} IN {qtype}  ({hex8})",
    "edns-disabled: info: success resolving '{qname}/{qtype}' (in '{zone}'?) after disabling EDNS",
    "client: info: " + _CLIENT + " ({qname}): error sending response: {senderr}",
    "query-errors: info: " + _CLIENT + " ({qname}): query failed ({qfail}) for "
    "{qsame}/IN/{qtype} at query.c:{int}",
)
_POD: Final = "&PodSandboxMetadata{{Name:{pod},Uid:{uuid},Namespace:{ns},Attempt:{attempt},}}"
_CMETA: Final = "&ContainerMetadata{{Name:{cname},Attempt:{attempt},}}"
_EVENT: Final = r'name:\"{image}\" labels:{{key:\"io.cri-containerd.image\" value:\"managed\"}}"'
_CONTAINERD: Final = tuple(
    "time={ctime} " + line
    for line in (
        r'level=info msg="StartContainer for \"{cid}\""',
        r'level=info msg="StartContainer for \"{cid}\" returns successfully"',
        r'level=info msg="CreateContainer within sandbox \"{cid}\" for container ' + _CMETA + '"',
        r'level=info msg="CreateContainer within sandbox \"{cid}\" for '
        + _CMETA
        + r' returns container id \"{cid}\""',
        'level=info msg="RunPodSandbox for ' + _POD + '"',
        'level=info msg="RunPodSandbox for ' + _POD + r' returns sandbox id \"{cid}\""',
        r'level=info msg="StopPodSandbox for \"{cid}\""',
        r'level=info msg="StopPodSandbox for \"{cid}\" returns successfully"',
        r'level=info msg="TearDown network for sandbox \"{cid}\" successfully"',
        'level=info msg="shim disconnected" id={cid} namespace=k8s.io',
        'level=warning msg="cleaning up after shim disconnected" id={cid} namespace=k8s.io',
        'level=info msg="cleaning up dead shim" namespace=k8s.io',
        r'level=info msg="PullImage \"{image}\""',
        'level=info msg="ImageCreate event ' + _EVENT,
        'level=info msg="ImageUpdate event ' + _EVENT,
        r'level=info msg="PullImage \"{image}\" returns image reference \"sha256:{sha64}\""',
        r'level=info msg="Pulled image \"{image}\" with image id \"sha256:{sha64}\", repo tag '
        r'\"{image}\", repo digest \"{image}@sha256:{sha64}\", size \"{int}\" in {godur}"',
        r'level=info msg="StopContainer for \"{cid}\" with timeout {int} (s)"',
        r'level=info msg="Stop container \"{cid}\" with signal {signal}"',
        r'level=info msg="RemoveContainer for \"{cid}\""',
        r'level=info msg="RemoveContainer for \"{cid}\" returns successfully"',
        r'level=error msg="ContainerStatus for \"{cid}\" failed" error="rpc error: code = '
        r'NotFound desc = an error occurred when try to find container \"{cid}\": not found"',
        r'level=error msg="Failed to destroy network for sandbox \"{cid}\"" error="plugin '
        r'type=\"{cni}\" failed (delete): {cnierr}"',
        r'level=info msg="received exit event container_id:\"{cid}\" id:\"{cid}\" pid:{int} '
        '{exitstatus}exited_at:{{seconds:{epoch} nanos:{int}}}"',
        r'level=info msg="loading plugin \"{plugin}\"..." type={ptype}',
        r'level=debug msg="ExecSync for \"{cid}\" with command [{execcmd}] and timeout {int} '
        '(s)"',
        r'level=debug msg="ExecSync for \"{cid}\" returns with exit code {int}"',
    )
)
_SUBJ: Final = "subj=system_u:system_r:{sctx}:s0"
_PAM: Final = (
    "pid={int} uid=0 auid={auid} ses={ses} " + _SUBJ + " msg='op=PAM:{op} grantors={grantors} "
    'acct="{acct}" exe="/usr/sbin/sshd" hostname={ip} addr={ip} terminal=ssh res={pamres}\''
)
_AUDIT: Final = tuple(
    "type=" + line
    for line in (
        "SYSCALL msg=audit({aid}): arch=c000003e syscall={int} success={success} exit={exit} "
        "a0={int} a1={int} a2={int} a3=0 items={int} ppid={int} pid={int} auid={auid} uid=0 gid=0 "
        'euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses={ses} comm="{comm}" '
        'exe="/usr/bin/{comm}" ' + _SUBJ + " key={akey}",
        "EXECVE msg=audit({aid}): argc={argc} {argv}",
        'CWD msg=audit({aid}): cwd="/home/{acct}"',
        "PATH msg=audit({aid}): item={int} name={aname} inode={int} dev=fd:00 mode=0100644 "
        "ouid=0 ogid=0 rdev=00:00 obj=system_u:object_r:{tctx}:s0 nametype={nametype} cap_fp=0 "
        "cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
        "PROCTITLE msg=audit({aid}): proctitle={proctitle}",
        "USER_AUTH msg=audit({aid}): " + _PAM.replace("{op}", "authentication"),
        "USER_ACCT msg=audit({aid}): " + _PAM.replace("{op}", "accounting"),
        "CRED_ACQ msg=audit({aid}): " + _PAM.replace("{op}", "setcred"),
        "CRED_DISP msg=audit({aid}): " + _PAM.replace("{op}", "setcred"),
        "USER_START msg=audit({aid}): " + _PAM.replace("{op}", "session_open"),
        "USER_END msg=audit({aid}): " + _PAM.replace("{op}", "session_close"),
        "USER_LOGIN msg=audit({aid}): pid={int} uid=0 auid={auid} ses={ses} "
        + _SUBJ
        + ' msg=\'op=login acct="{acct}" exe="/usr/sbin/sshd" hostname=? addr={ip} '
        "terminal=ssh res={res}'",
        "LOGIN msg=audit({aid}): pid={int} uid=0 " + _SUBJ + " old-auid=4294967295 auid={auid} "
        "tty=(none) old-ses=4294967295 ses={ses} res=1",
        "SERVICE_START msg=audit({aid}): pid=1 uid=0 auid=4294967295 ses=4294967295 "
        + _SUBJ
        + ' msg=\'unit={unit} comm="systemd" exe="/usr/lib/systemd/systemd" hostname=? addr=? '
        "terminal=? res={res}'",
        "SERVICE_STOP msg=audit({aid}): pid=1 uid=0 auid=4294967295 ses=4294967295 "
        + _SUBJ
        + ' msg=\'unit={unit} comm="systemd" exe="/usr/lib/systemd/systemd" hostname=? addr=? '
        "terminal=? res={res}'",
        'AVC msg=audit({aid}): avc:  denied  {{ {perms} }} for  pid={int} comm="{comm}" '
        'name="{unit}" dev="tmpfs" ino={int} scontext=system_u:system_r:httpd_t:s0 '
        "tcontext=system_u:object_r:{tctx}:s0 tclass=sock_file permissive=0",
        "CONFIG_CHANGE msg=audit({aid}): auid={auid} ses={ses} " + _SUBJ + " op=add_rule "
        "key={akey} list=4 res=1",
        "ANOM_ABEND msg=audit({aid}): auid={auid} uid=1000 gid=1000 ses={ses} "
        + _SUBJ
        + ' pid={int} comm="{comm}" exe="/usr/bin/{comm}" sig={int} res=1',
        "NETFILTER_CFG msg=audit({aid}): table=filter family=2 entries={int} op=xt_replace "
        "pid={int} " + _SUBJ + ' comm="iptables-restor"',
        "BPF msg=audit({aid}): prog-id={int} op={bpfop}",
        "USER_CMD msg=audit({aid}): pid={int} uid=1000 auid={auid} ses={ses} "
        + _SUBJ
        + ' msg=\'cwd="/home/{acct}" cmd={proctitle} exe="/usr/bin/sudo" terminal=pts/0 '
        "res={res}'",
        "CRYPTO_KEY_USER msg=audit({aid}): pid={int} uid=0 auid={auid} ses={ses} "
        + _SUBJ
        + " msg='op=destroy kind=server fp={fp} direction=? spid={int} suid=0  "
        'exe="/usr/sbin/sshd" hostname=? addr=? terminal=? res=success\'',
    )
)

UNSEEN7_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "cassandra": _CASSANDRA,
    "jenkins": _JENKINS,
    "alb": _ALB,
    "bind": _BIND,
    "containerd": _CONTAINERD,
    "auditd": _AUDIT,
}
"""The seventh set of unseen styles; a slot in braces is a variable of the true template."""
