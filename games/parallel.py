"""Offline work spread over processes: the management commands that read every match
(verify_log, rebuild_ratings) hand chunks of it to forked workers, one per core asked for.

Each worker is a fork of the command's process, Django set up, that opens its own database
connection: the parent closes its connections before forking so that no socket is shared.
An in-memory SQLite database (the test suite's) cannot be reopened, and Django never closes
one, so a worker reads the copy of it that the fork gave it.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.util import Finalize
from typing import TypeVar

from django.db import connections

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _worker_started() -> None:
    # A worker ends by os._exit, which skips atexit; multiprocessing's own finalizers still
    # run, so the connection says goodbye to PostgreSQL instead of dropping.
    Finalize(None, connections.close_all, exitpriority=10)


def in_processes(
    work: Callable[[Chunk], Result], chunks: Iterable[Chunk], jobs: int
) -> Iterator[Result]:
    """`work(chunk)` for every chunk, in `jobs` worker processes (in this one when `jobs` is
    1), each result as soon as it is ready (not in order). `work` must be a module-level
    function; chunks and results travel pickled."""
    if jobs <= 1:
        for chunk in chunks:
            yield work(chunk)
        return
    connections.close_all()
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_started)
    try:
        yield from pool.imap_unordered(work, chunks)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
