"""`serve --port N` makes the links in emails point at port N unless SITE_URL is set."""

from games.management.commands.serve import site_url


def test_the_served_port_becomes_the_site_url(monkeypatch, settings):
    monkeypatch.delenv("SITE_URL", raising=False)
    assert site_url("127.0.0.1", 8123) == "http://127.0.0.1:8123"
    assert settings.SITE_URL == "http://127.0.0.1:8123"
    assert "http://127.0.0.1:8123" in settings.CSRF_TRUSTED_ORIGINS


def test_an_explicit_site_url_is_kept(monkeypatch, settings):
    monkeypatch.setenv("SITE_URL", "https://play.example.com")
    settings.SITE_URL = "https://play.example.com"
    assert site_url("0.0.0.0", 8123) == "https://play.example.com"
