"""Run the analyser's game checks on the example game: ``python examples/check_highcard.py``.

Registers high card (examples/highcard/, a game written outside the package)
and runs analyser.testing.check_game on it: one line per check (passed,
failed or skipped, with why), then a summary; the exit code is 1 when a check
failed. Copy it for your own game: import your GameSpec instead.
"""
import sys

from highcard import GAME, register

from analyser.testing import check_game


def main() -> int:
    register()      # not needed for the checks (they take the spec itself), but how a user's game is used
    report = check_game(GAME, raise_on_failure=False, on_result=lambda result: print(result.line(), flush=True))
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
