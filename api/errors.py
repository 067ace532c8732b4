"""Every answer under /api/ that is an error is in the API's one error shape, whatever made
it: a path no operation has (404), a method an operation does not take (405), a body over
Django's size limit (413), besides the operations' own errors (api/v1.py)."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

CODES = {
    400: ("bad_request", "The request could not be read."),
    404: ("not_found", "No such thing here."),
    405: ("method_not_allowed", "This path does not take that method."),
    413: ("too_large", "The request body is too large."),
}


class ApiErrorShape:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        try:
            request.body  # noqa: B018  read here, so a body over the limit is a 413 of ours
        except RequestDataTooBig:
            return _error(413)
        response = self.get_response(request)
        if response.status_code < 400 or response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return response
        shaped = _error(response.status_code)
        if response.has_header("Allow"):
            shaped["Allow"] = response["Allow"]
        return shaped


def _error(status: int) -> JsonResponse:
    code, message = CODES.get(status, ("error", "The request could not be answered."))
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)
