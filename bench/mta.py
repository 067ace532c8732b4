"""Email replies as an MTA delivers them: each message piped to a `manage.py` process of its
own (`receive_email --recipient ... --sender ...`, as Postfix's pipe(8) starts it), and the
floor: `manage.py bench_floor` processes, each reading its message and locking and inserting
one row (bench.floors).

The replies and the floor run side by side, as many lanes each, for a fixed number of
seconds: a `manage.py` process takes seconds on a loaded box, so running them one after the
other would give each its own load. A lane starts one process, waits for it to end and
starts the next (none after the time is up); a replies' lane plays its own matches' scripts
in order, so a match's moves arrive one after another, as a player's replies do.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator

from bench.common import ROOT, percentile

Job = tuple[list[str], bytes]  # manage.py's arguments and the message on its stdin
OK = {"email": "Applied", "floor": "done: floor"}  # what each kind's process prints


def email_jobs(matches: list[dict]) -> Iterator[Job]:
    """Each scripted move of these matches, in order, as the reply a player would send."""
    from bench.moves import reply

    for m in matches:
        for seat, seq, command, _key in m["script"]:
            user = m["users"][seat]
            address, raw = reply(m["id"], seat, seq, user, command)
            yield ["receive_email", "--recipient", address, "--sender", user.email], raw


def floor_jobs(ids: list[int], sample: bytes) -> Iterator[Job]:
    while True:
        for pk in ids:
            yield ["bench_floor", "--match", str(pk)], sample


def run(lanes: dict[str, list[Iterator[Job]]], *, seconds: float, env: dict) -> dict:
    """Start every lane of every kind together; a process counts as a move when it exits 0
    and prints its kind's OK. Per kind: moves per second over the time from the start to
    its last process's end, and the processes' p50 and p99."""
    latencies: dict[str, list[float]] = {kind: [] for kind in lanes}
    failures: dict[str, list[str]] = {kind: [] for kind in lanes}
    lock = threading.Lock()
    started = time.perf_counter()
    ended = dict.fromkeys(lanes, started)

    def lane(kind: str, jobs: Iterator[Job]) -> None:
        for arguments, raw in jobs:
            if time.perf_counter() >= started + seconds:
                return
            t = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "manage.py", *arguments],
                input=raw,
                capture_output=True,
                cwd=ROOT,
                env=env,
                timeout=600,
            )
            spent = time.perf_counter() - t
            text = out.stdout.decode(errors="replace")
            passed = out.returncode == 0 and OK[kind] in text
            with lock:
                ended[kind] = max(ended[kind], time.perf_counter())
                if passed:
                    latencies[kind].append(spent)
                else:
                    failures[kind].append(f"{out.returncode} {text[-300:]} {out.stderr[-300:]!r}")
            if not passed:
                return  # a refused move leaves this lane's script behind its match

    threads = [
        threading.Thread(target=lane, args=(kind, jobs))
        for kind, kind_lanes in lanes.items()
        for jobs in kind_lanes
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out = {}
    for kind, spent in latencies.items():
        duration = ended[kind] - started
        out[kind] = {
            "moves": len(spent),
            "requests": len(spent) + len(failures[kind]),
            "errors": len(failures[kind]),
            "failures": failures[kind][:3],
            "duration_us": duration * 1e6,
            "per_s": len(spent) / duration if duration else 0.0,
            "p50_us": percentile(spent, 50) * 1e6,
            "p99_us": percentile(spent, 99) * 1e6,
            "parallel": len(lanes[kind]),
        }
    return out
