"""A webhook cannot be turned against the server's own network: non-public addresses are
refused, the name is resolved once and that address is the one connected to (DNS
rebinding), the Host header and TLS name are the URL's host, and redirects are not
followed."""

import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from notifications.transports import TransportError, WebhookTransport, check_webhook_url

PRIVATE = [
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.10/hook",
    "https://172.16.5.4/hook",
    "https://169.254.169.254/latest/meta-data",  # cloud metadata, link-local
    "https://[::1]/hook",
    "https://[fe80::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://0.0.0.0/hook",
    "https://localhost/hook",
]


class Recorder(BaseHTTPRequestHandler):
    seen: list = []
    redirect_to = ""

    def do_POST(self):
        Recorder.seen.append((self.server.server_port, self.path, self.headers["Host"]))
        self.rfile.read(int(self.headers["Content-Length"]))
        if Recorder.redirect_to and self.path == "/first":
            self.send_response(302)
            self.send_header("Location", Recorder.redirect_to)
        else:
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def servers():
    started = []
    for _ in range(2):
        server = HTTPServer(("127.0.0.1", 0), Recorder)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
    Recorder.seen, Recorder.redirect_to = [], ""
    yield [s.server_port for s in started]
    for server in started:
        server.shutdown()


@pytest.fixture
def public_only(settings):
    settings.DEBUG = False
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = False


@pytest.mark.parametrize("url", PRIVATE)
def test_non_public_addresses_are_refused(url, public_only):
    assert check_webhook_url(url) == "A webhook must point to a public address."
    with pytest.raises(TransportError) as refused:
        WebhookTransport().notify(type("Row", (), {"address": url, "pk": 1})())
    assert refused.value.permanent


def test_the_name_is_resolved_once_and_that_address_is_connected_to(public_only, monkeypatch):
    """A rebinding name answers a public address to the check and loopback a moment later:
    the request still goes to the public address checked, with the URL's name for TLS."""
    answers = iter(["93.184.215.14", "127.0.0.1"])
    lookups, connected = [], []

    def getaddrinfo(host, port, *args, **kwargs):
        lookups.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port))]

    def create_connection(address, timeout=None, *args, **kwargs):
        connected.append(address)
        raise ConnectionRefusedError("test: not really connecting")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    row = type("Row", (), {"address": "https://rebind.example.test/hook", "pk": 1, "context": {}})()
    monkeypatch.setattr("notifications.emails.webhook_text", lambda row: "Your turn")
    with pytest.raises(TransportError, match="unreachable"):
        WebhookTransport().notify(row)
    assert lookups == ["rebind.example.test"]
    assert connected == [("93.184.215.14", 443)]


def test_the_host_header_names_the_urls_host(servers, settings, monkeypatch):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        return real("127.0.0.1" if host == "hooks.example.test" else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    url = f"http://hooks.example.test:{servers[0]}/hook?x=1"
    address = "127.0.0.1"
    WebhookTransport().post(url, address, b"{}")
    assert Recorder.seen == [(servers[0], "/hook?x=1", f"hooks.example.test:{servers[0]}")]


def test_a_redirect_is_not_followed(servers, settings):
    settings.NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = True
    Recorder.redirect_to = f"http://127.0.0.1:{servers[1]}/internal"
    with pytest.raises(TransportError, match="redirect") as refused:
        WebhookTransport().post(f"http://127.0.0.1:{servers[0]}/first", "127.0.0.1", b"{}")
    assert refused.value.permanent
    assert [port for port, *_ in Recorder.seen] == [servers[0]]
