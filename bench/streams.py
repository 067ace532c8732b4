"""What idle event streams cost the server: memory (RSS) and threads of one web worker with
0, 50 and 200 streams open (GET /api/v1/stream, each from an account of its own).

The server is as production runs it: gunicorn with one uvicorn worker (config.asgi, DEBUG
off), on a fresh SQLite database in a temporary folder (an idle stream reads nothing, so the
database does not matter here) and the embedded cache and broker. Each client sends its request on a
socket of its own, reads the headers and the `hello` line, and then holds the connection.
The figures are read from /proc for the worker process (the gunicorn master apart) after
the streams have been open a few seconds; then one event is sent to the last stream opened,
to show that the streams still listen.

    uv run python -m bench.streams [--counts 0 50 200]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.common import machine, report, table

ROOT = Path(__file__).resolve().parents[1]
SETTLE = 3.0  # seconds the streams are left open before the figures are read

ACCOUNTS = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from api.tokens import make_token
keys = []
for n in range(int(sys.argv[1])):
    email = f"stream-{n}@example.com"
    user = get_user_model().objects.create_user(username=email, email=email, password=None)
    keys.append(make_token(user=user, name="bench", scope="play")[1])
print(json.dumps(keys))
"""

CHAT = """
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from games import services
from games.chat import post_message
User = get_user_model()
listener = User.objects.get(email=sys.argv[1])
speaker = User.objects.create_user(username="speaker", email="speaker@example.com", password=None)
match = services.create_match(creator=speaker, game_slug="nieuwstad", players=2,
                              invite_emails=[listener.email])
services.join_match(match_id=match.pk, user=listener)
post_message(match=match, user=speaker, text="still listening?")
"""


def proc_status(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "Threads"):
            fields[name] = int(value.split()[0])
    return fields


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def open_stream(port: int, key: str) -> socket.socket:
    """A stream held open: the request sent, the headers and the `hello` line read."""
    client = socket.create_connection(("127.0.0.1", port), timeout=30)
    client.sendall(
        (
            f"GET /api/v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {key}\r\nAccept: application/x-ndjson\r\n\r\n"
        ).encode()
    )
    received = b""
    while b'"hello"' not in received:
        chunk = client.recv(4096)
        if not chunk:
            raise RuntimeError(f"the stream closed: {received!r}")
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received[:200]
    return client


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[0, 50, 200])
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-streams-"))
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PBM_VAR_DIR": str(folder),
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-streams-" + "k3y" * 20,
        "SECURE_SSL_REDIRECT": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "LOG_LEVEL": "WARNING",
    }
    for name in ("CACHE_URL", "CELERY_BROKER_URL"):  # the embedded defaults: nothing shared
        env.pop(name, None)
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], **run)
    keys = json.loads(
        subprocess.run([sys.executable, "-c", ACCOUNTS, str(max(args.counts))], **run).stdout
    )
    log = open(folder / "gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.asgi:application"]
        + ["--worker-class", "uvicorn_worker.UvicornWorker", "--workers", "1"]
        + ["--bind", f"127.0.0.1:{port}", "--graceful-timeout", "2"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    rows, figures = [], {"counts": {}}
    streams: list[socket.socket] = []
    try:
        _wait_until_up(port, server)
        worker = worker_pid(server.pid)
        for count in sorted(args.counts):
            while len(streams) < count:
                streams.append(open_stream(port, keys[len(streams)]))
            time.sleep(SETTLE)
            status = proc_status(worker)
            figures["counts"][count] = status
            rows.append([count, f"{status['VmRSS'] / 1024:.1f} MiB", status["Threads"]])
        woke = _one_event(streams[-1], keys, run) if streams else None
    finally:
        for client in streams:
            client.close()
        server.terminate()
        server.wait(30)
        log.close()
    base = figures["counts"][min(args.counts)]
    most = figures["counts"][max(args.counts)]
    per_stream = (most["VmRSS"] - base["VmRSS"]) / max(1, max(args.counts) - min(args.counts))
    figures["kib_per_stream"] = per_stream
    figures["event_seconds"] = woke
    text = table(["open streams", "worker RSS", "worker threads"], rows)
    box = machine()
    text += (
        f"\n\n{per_stream:.0f} KiB a stream. {box['nproc']} cores, {box['cpu']}, load average"
        f" {box['load_average'][0]}."
    )
    if woke is not None:
        text += f" An event reached the last stream {woke:.2f} s after it was written."
    report("streams", "Idle event streams: what one worker holds", text, figures)
    return figures


def _one_event(client: socket.socket, keys: list[str], run: dict) -> float:
    """Seconds from a chat message committed (by another process) to its line on the
    stream (0 when it was there before the writer had exited)."""
    email = _account_of(keys[-1], run)
    subprocess.run([sys.executable, "-c", CHAT, email], **run)
    written = time.monotonic()  # the writer has committed and exited
    received = b""
    while b'"chat"' not in received:
        received += client.recv(4096)
    return time.monotonic() - written


def _account_of(key: str, run: dict) -> str:
    script = (
        "import django, sys; django.setup(); from api.tokens import user_for; "
        "print(user_for(sys.argv[1])[0].email)"
    )
    return subprocess.run([sys.executable, "-c", script, key], **run).stdout.strip()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("gunicorn did not answer within 120 s")


if __name__ == "__main__":
    main()
