"""django-csp's middleware, with the policy a JSON answer needs.

A JSON answer (the API's, a page's polling) is data, never a document a browser renders, so it
gets the fixed policy an API's answers carry: nothing may load from it, nothing may frame it.
django-csp builds the pages' policy for every response, even one whose header is already set
(about 3% of a move over the API, in the profile of `bench.profile_move`); for these it is not
built at all. Pages keep django-csp's policy and its nonces.
"""

from __future__ import annotations

from csp.constants import HEADER
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from django.conf import settings

JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"


class CSPMiddleware(LibraryCSPMiddleware):
    def process_response(self, request, response):
        if (
            not response.get("Content-Type", "").startswith("application/json")
            or getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
            or getattr(request, "_csp_nonce", None) is not None  # a nonce was asked for
        ):
            return super().process_response(request, response)
        if HEADER not in response and not getattr(response, "_csp_exempt", False):
            response[HEADER] = JSON_POLICY
        # As the library does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
