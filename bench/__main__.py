"""Run every benchmark, one process each, and print their tables.

    uv run python -m bench [--quick] [--only NAME ...] [--game SLUG ...]

Each benchmark also runs alone (`uv run python -m bench.<name>`); bench/README.md lists them.
The whole default suite takes a few minutes on a 2-core machine; --quick takes seconds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from bench.common import ROOT, machine

BENCHMARKS = [
    "replay",
    "replay_instructions",
    "throughput",
    "roundtrips",
    "replay_db",
    "deadlines",
    "notify",
    "profile_move",
    "lobby",
    "growth",
    "http",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (the smoke test's)")
    parser.add_argument("--only", action="append", choices=BENCHMARKS, help="repeatable")
    parser.add_argument("--game", action="append", help="only this slug (repeatable)")
    args = parser.parse_args(argv)
    info = machine()
    print("# Benchmarks\n")
    print(
        f"Machine: {info['nproc']} cores, {info['cpu']}, {info['memory']}, Python "
        f"{info['python']}, load average at start {info['load_average']}; the rules as plain "
        f"Python, seeds drawing from the {info['seeds']}"
    )
    failed = []
    started = time.perf_counter()
    for name in args.only or BENCHMARKS:
        command = [sys.executable, "-m", f"bench.{name}"]
        if args.quick:
            command.append("--quick")
        if name in ("replay", "throughput"):
            command.append("--profile")
        for slug in args.game or []:
            command += ["--game", slug]
        t = time.perf_counter()
        code = subprocess.run(command, cwd=ROOT).returncode
        print(f"\n({name}: {time.perf_counter() - t:.0f} s)", flush=True)
        if code:
            failed.append(name)
    print(f"\nAll benchmarks: {time.perf_counter() - started:.0f} s.")
    if failed:
        print(f"Benchmarks that did not run to the end: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
