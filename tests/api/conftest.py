import pytest
from django.test import Client

from api.tokens import make_token
from tests.factories import make_user, two_player_match


class TokenClient:
    """A test client that sends one bearer token with every request."""

    def __init__(self, key: str):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {key}"}

    def get(self, path, **params):
        return self.client.get("/api/v1" + path, params, headers=self.headers)

    def post(self, path, body=None):
        return self.client.post(
            "/api/v1" + path, body or {}, content_type="application/json", headers=self.headers
        )


def token_client(user, scope="play") -> TokenClient:
    _token, key = make_token(user=user, name="test", scope=scope)
    return TokenClient(key)


@pytest.fixture
def duel(db):
    """Anna and Bram in play in the sealed-cards test game; returns (match, anna, bram)
    where anna and bram are users."""
    match, _anna_seat, _bram_seat = two_player_match()
    anna = match.created_by
    bram = match.seats.exclude(user=anna).get().user
    return match, anna, bram


@pytest.fixture
def stranger(db):
    return make_user("Cor")
