"""Table talk is mailed to the other players: the notifications tests' site and players."""

from tests.notifications.conftest import _site, anna, ben, match, send_all, to  # noqa: F401
