"""The README's commands as a new user meets them: each run in order in a checkout, timed; prints Markdown.

    python3 benchmarks/readme_tour.py CHECKOUT [--timeout 900] [--skip-make-test]

Every command of the README's ``sh`` blocks (continuation lines joined), run with ``bash -c`` in
CHECKOUT (a fresh ``git clone``, so the first, ``make demo``, makes the venv and the compile cache
starts empty, as a new user's does), in the README's order, with its wall time and exit code.
Left out, and said so: the cluster lines (a scheduler runs until stopped, the others need its
address) and, with
``--skip-make-test``, ``make test`` (CI's own job times it). A command that runs the same line as
the one before it (the README's resumed run) is run again: the second run is the resume.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path


def commands(readme: str) -> list[str]:
    """The README's shell commands, continuation lines joined, comments dropped."""
    out, pending = [], ""
    for block in re.findall(r"```sh\n(.*?)```", readme, flags=re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).rstrip()
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.endswith("\\"):
                pending += line[:-1].strip() + " "
                continue
            out.append((pending + line.strip()).strip())
            pending = ""
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--skip-make-test", action="store_true")
    args = ap.parse_args()
    cmds = commands((args.checkout / "README.md").read_text())
    print("| # | command | exit | wall (s) |\n|---:|---|---:|---:|", flush=True)
    total = 0.0
    for i, cmd in enumerate(cmds, 1):
        if "HOST" in cmd or "dask scheduler" in cmd or (args.skip_make_test and cmd.startswith("make test")):
            print(f"| {i} | `{cmd}` | skipped | |", flush=True)
            continue
        start = time.perf_counter()
        try:
            code = subprocess.run(["bash", "-c", cmd], cwd=args.checkout, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=args.timeout).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        took = time.perf_counter() - start
        total += took
        print(f"| {i} | `{cmd}` | {code} | {took:,.1f} |", flush=True)
    print(f"\nTotal {total:,.0f} s over the commands run.")


if __name__ == "__main__":
    main()
