"""Size figures of the source: module and function lengths per layer.

Counts the four code folders (domain, ports, application, adapters), leaving out tests, bench
and migrations. A module's length is its line count; a function's is from its ``def`` line to
its last line (decorators and docstrings included). Prints, per layer, the module count, the
median and largest module, then every module over the module limit and every function over
the function limit. Exits 1 when anything is over a limit with ``--check``.

    python scripts/code_figures.py [--check] [--module-limit 400] [--function-limit 60]
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "ports", "application", "adapters")
LEFT_OUT = ("migrations",)


def _modules(layer: str) -> list[Path]:
    return sorted(
        path
        for path in (ROOT / layer).rglob("*.py")
        if not any(part in LEFT_OUT for part in path.relative_to(ROOT).parts)
    )


def _long_functions(path: Path, limit: int) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                found.append((f"{node.name}:{node.lineno}", length))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--module-limit", type=int, default=400)
    parser.add_argument("--function-limit", type=int, default=60)
    args = parser.parse_args()
    over_modules: list[tuple[str, int]] = []
    over_functions: list[tuple[str, int]] = []
    print(f"{'layer':<12}{'modules':>8}{'median':>8}{'largest':>9}")
    for layer in LAYERS:
        paths = _modules(layer)
        sizes = [len(path.read_text(encoding="utf-8").splitlines()) for path in paths]
        for path, size in zip(paths, sizes, strict=True):
            name = path.relative_to(ROOT).as_posix()
            if size > args.module_limit:
                over_modules.append((name, size))
            over_functions.extend(
                (f"{name}:{function}", length)
                for function, length in _long_functions(path, args.function_limit)
            )
        median = statistics.median(sizes) if sizes else 0
        print(f"{layer:<12}{len(sizes):>8}{median:>8.0f}{max(sizes, default=0):>9}")
    print(f"modules over {args.module_limit} lines: {len(over_modules)}")
    for name, size in sorted(over_modules, key=lambda item: -item[1]):
        print(f"  {size:>5}  {name}")
    print(f"functions over {args.function_limit} lines: {len(over_functions)}")
    for name, length in sorted(over_functions, key=lambda item: -item[1]):
        print(f"  {length:>5}  {name}")
    if args.check and (over_modules or over_functions):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
