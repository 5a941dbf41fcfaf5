"""Maps the top-level code folders onto the ``factledger`` import package.

The repository root shows ``domain/``, ``ports/``, ``adapters/`` and ``application/``; they
install as ``factledger.domain`` and so on (never as top-level names, which other
distributions own). ``public/`` installs as ``factledger`` itself: the names users import
(``from factledger import Harness``), re-exported lazily (ADR 0021). Sub-packages are
discovered here so that adding one needs no edit.
"""

from pathlib import Path

from setuptools import setup

LAYERS = ("domain", "ports", "adapters", "application")
PUBLIC = "public"
"""The folder that installs as the ``factledger`` package itself."""
ROOT = Path(__file__).parent


def _packages() -> tuple[list[str], dict[str, str]]:
    packages: list[str] = ["factledger"]
    package_dir: dict[str, str] = {"factledger": PUBLIC}
    for init in sorted((ROOT / PUBLIC).rglob("*/__init__.py")):
        folder = init.parent.relative_to(ROOT)
        name = ".".join(("factledger", *folder.parts[1:]))
        packages.append(name)
        package_dir[name] = folder.as_posix()
    for layer in LAYERS:
        for init in sorted((ROOT / layer).rglob("__init__.py")):
            folder = init.parent.relative_to(ROOT)
            name = "factledger." + ".".join(folder.parts)
            packages.append(name)
            package_dir[name] = folder.as_posix()
    return packages, package_dir


PACKAGES, PACKAGE_DIR = _packages()

setup(packages=PACKAGES, package_dir=PACKAGE_DIR)
