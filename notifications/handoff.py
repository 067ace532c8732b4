"""Handing work to Celery without making a request wait on the broker.

What a request hands over after its commit is already recorded in a row (an outbox
notification, an inbound message), and a periodic sweep sends any row the broker never got.
So the request only puts the task on an in-process queue and returns; one daemon thread per
process publishes from it. A broker that refuses, hangs or is unreachable costs that thread
its short connect and socket timeouts (config/settings.py), never a request. When a publish
fails the thread drops what is queued behind it (logged: the sweep sends those rows), so a
broker outage cannot grow a backlog in memory.

With `task_always_eager` (tests, and the embedded defaults when set) the task runs inline,
as such callers expect. Code that already runs in a worker or beat (the sweeps) publishes
with `publish`, directly. A process that ends soon after its work (`receive_email` piped
from the MTA) publishes what is still queued as it exits, so its answer does not wait for
the sweep.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from typing import Any

log = logging.getLogger(__name__)

_queue: queue.Queue = queue.Queue()  # a Queue, not a SimpleQueue: `wait_until_idle` joins it
_thread: threading.Thread | None = None
_thread_pid: int | None = None
_start_lock = threading.Lock()


def hand_off(task, *args: Any) -> None:
    """Publish `task(*args)` from the hand-off thread; return at once."""
    if task.app.conf.task_always_eager:
        publish(task, *args)
        return
    _ensure_thread()
    _queue.put((task, args))


def publish(task, *args: Any) -> bool:
    """Publish now, once, with no retry; whether the broker took it."""
    try:
        # argsrepr: our arguments are a few ids; Celery's own bounded repr of them reads two
        # settings and walks the arguments, a tenth of a publish. declare=[]: Celery would
        # declare the queue again on every publish (kombu copies and binds it to learn it has
        # already, about an eighth of a publish); the task goes straight to the queue's list
        # (a direct queue is published through the default exchange) and workers declare it.
        task.apply_async(args, retry=False, argsrepr=repr(args), kwargsrepr="{}", declare=[])
        return True
    except Exception as error:  # kombu raises several kinds for an unreachable broker
        log.warning("%s%r left for the sweep: broker: %s", task.name, args, error)
        return False


def _ensure_thread() -> None:
    """One thread per process, started on first use (a forked web worker starts its own)."""
    global _thread, _thread_pid
    if _thread is not None and _thread_pid == os.getpid() and _thread.is_alive():
        return
    with _start_lock:
        if _thread is not None and _thread_pid == os.getpid() and _thread.is_alive():
            return
        _thread = threading.Thread(target=_publish_queued, name="celery-handoff", daemon=True)
        _thread_pid = os.getpid()
        _thread.start()
        atexit.register(publish_remaining)


def _publish_queued() -> None:
    while True:
        task, args = _queue.get()
        try:
            if not publish(task, *args):
                _drop_queued()
        finally:
            _queue.task_done()


def publish_remaining() -> None:
    """At exit: publish what the thread has not taken yet, until the broker refuses one."""
    while True:
        try:
            task, args = _queue.get_nowait()
        except queue.Empty:
            return
        _queue.task_done()
        if not publish(task, *args):
            _drop_queued()
            return


def _drop_queued() -> None:
    dropped = 0
    while True:
        try:
            _queue.get_nowait()
        except queue.Empty:
            break
        _queue.task_done()
        dropped += 1
    if dropped:
        log.warning("%s hand-offs left for the sweep: the broker is not answering", dropped)


def wait_until_idle(timeout: float = 30.0) -> None:
    """Return once everything handed off so far is published or dropped (for tests that
    change the broker: a publish still queued would otherwise reach the next one). Raises
    TimeoutError rather than wait forever on a thread that is not running."""
    with _queue.all_tasks_done:
        if not _queue.all_tasks_done.wait_for(lambda: _queue.unfinished_tasks == 0, timeout):
            raise TimeoutError(f"{_queue.unfinished_tasks} hand-offs still queued")
