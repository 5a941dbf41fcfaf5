"""Run mypy (strict, settings in pyproject.toml) over the installed package, tests, bench and
the examples.

The code folders install as ``factledger.<folder>`` and ``public/`` as ``factledger`` itself
(package-dir remap), so mypy must check them under their installed module names: this lists
every module and passes it with ``-m``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "ports", "adapters", "application")
PUBLIC = "public"
"""The folder that installs as the ``factledger`` package itself (setup.py)."""


def _in_package(path: Path) -> bool:
    """True when every folder from the layer down to the file is a package (as setup.py sees)."""
    folder = path.parent
    while folder != ROOT:
        if not (folder / "__init__.py").exists():
            return False
        folder = folder.parent
    return True


def installed_modules() -> list[str]:
    modules: list[str] = []
    for path in sorted((ROOT / PUBLIC).rglob("*.py")):
        parts = path.relative_to(ROOT / PUBLIC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(("factledger", *parts)))
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if not _in_package(path):
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.append(".".join(("factledger", *parts)))
    return modules


def source_modules(folder: str) -> list[str]:
    """Modules of a folder that is imported from the repository root (tests, bench)."""
    modules: list[str] = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(parts))
    return modules


def main() -> int:
    command = [sys.executable, "-m", "mypy"]
    for module in installed_modules() + source_modules("tests") + source_modules("bench"):
        command += ["-m", module]
    checked = subprocess.call([*command, *sys.argv[1:]], cwd=ROOT)
    return checked or examples(sys.argv[1:])


def examples(extra: list[str]) -> int:
    """The runnable examples, as their README runs them: each a script beside its helpers."""
    folder = ROOT / "examples"
    scripts = sorted(path.name for path in folder.glob("*.py"))
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    environment = {**os.environ, "MYPYPATH": str(folder)}
    return subprocess.call([*command, *extra, *scripts], cwd=folder, env=environment)


if __name__ == "__main__":
    raise SystemExit(main())
