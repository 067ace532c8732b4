"""anymail's test backend, answering from a script: each message sent takes the next
response (an anymail response or exception, or any exception to raise from the backend)."""

from __future__ import annotations

from anymail.backends.test import EmailBackend
from anymail.exceptions import AnymailAPIError
from anymail.message import AnymailRecipientStatus

BACKEND = "tests.notifications.esp.ScriptedESP"


class ScriptedESP(EmailBackend):
    script: list = []
    down: object | None = None  # answer every send with this while set (an outage)
    delivered: list = []  # messages the ESP accepted
    refusing: set = set()  # addresses the ESP refuses

    def send_messages(self, email_messages):
        sent = 0
        for message in email_messages:
            response = ScriptedESP.script.pop(0) if ScriptedESP.script else ScriptedESP.down
            if message.to[0] in ScriptedESP.refusing:
                response = refused(message.to[0])
            if isinstance(response, Exception) and not isinstance(response, AnymailAPIError):
                raise response  # a failure below anymail (a bug, a library)
            if response is not None:
                message.anymail_test_response = response
            sent += super().send_messages([message])
            ScriptedESP.delivered.append(message)
        return sent


def refused(address: str) -> dict:
    """The ESP answers that it will not send to this address."""
    return {"recipient_status": {address: AnymailRecipientStatus(None, "rejected")}}


def unavailable() -> AnymailAPIError:
    return AnymailAPIError("Service Unavailable", status_code=503)


def reset() -> None:
    ScriptedESP.script = []
    ScriptedESP.down = None
    ScriptedESP.delivered = []
    ScriptedESP.refusing = set()
