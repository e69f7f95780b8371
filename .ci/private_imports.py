"""No module of the package imports a private name (``_x``) from another module.

    python .ci/private_imports.py [PACKAGE_DIR]

A leading underscore says "this module's own business"; a name another module
needs is given a public name instead. Run by ``make lint``; exit code 1 lists
each offending import as ``file:line: from module import _name``.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path


def offences(package: Path) -> list[str]:
    root = package.parent
    found = []
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if not node.module.split(".")[0] == package.name or node.module == module:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {alias.name}")
    return found


def main() -> int:
    package = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "analyser")
    found = offences(package)
    for line in found:
        print(line)
    print(f"{len(found)} private names imported across modules in {package.name}/")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
