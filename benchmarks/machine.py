"""The machine a benchmark ran on, as RESULTS.md records it (stdlib only: the peer's venv imports it too)."""
from __future__ import annotations

import contextlib
import os
import platform
from pathlib import Path


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def machine_line() -> str:
    """``Machine: x86_64, <CPU>, N cores, Python X.Y.Z``."""
    return f"Machine: {platform.machine()}, {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"
