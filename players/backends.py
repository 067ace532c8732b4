"""django-axes checks a lockout before the password backends run. It needs the request; a
token checked without one (a sign-in link's or an API token, read by django-sesame) is not
a password guess, so the check stands aside for it."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LoginThrottle(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
