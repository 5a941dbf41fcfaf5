"""A small batch of varied log lines for mining tests (fixed, so hypothesis can permute it)."""

from __future__ import annotations

from functools import cache

__all__ = ["styled_messages"]


@cache
def _messages() -> tuple[str, ...]:
    users = ("ann", "bob", "cyd", "dora", "eve", "finn")
    programs = ("Chrome.exe", "firefox.exe", "Mail.exe", "sync.exe", "QQ.exe")
    lines: list[str] = []
    for index in range(60):
        user = users[index % len(users)]
        program = programs[index % len(programs)]
        lines.append(f"Failed password for {user} from 10.0.{index}.7 port {40000 + index} ssh2")
        lines.append(f"{program} - host{index}.example.org:443 open through proxy p.net:8080 HTTPS")
        if index % 3 == 0:
            lines.append(f"session opened for user {user} by (uid={index})")
            lines.append(f"session closed for user {user}")
        if index % 7 == 0:
            lines.append(f"Block broadcast_{index} stored (estimated size {index}.5 KB, free 3 MB)")
            lines.append(f"Block rdd_{index}_1 stored (estimated size {index} B, free 3 MB)")
        if index % 5 == 0:
            lines.append(f"state={'ok' if index % 2 else 'failed'} job={index} took {index}ms")
    return tuple(lines)


def styled_messages() -> list[str]:
    """About 200 lines of several styles, always in the same order."""
    return list(_messages())
