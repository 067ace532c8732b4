"""anymail's test backend, with the provider message id as a string, as real ESPs give it.

anymail's own test backend reports the message's index in `mail.outbox` (an int), which
notifications.transports.EmailTransport cannot join into an id (it expects a str or a set of
str). Everything else is anymail's test backend unchanged.
"""

from anymail.backends.test import EmailBackend as AnymailTestBackend


class EmailBackend(AnymailTestBackend):
    def get_esp_message_id(self, message) -> str:
        return f"bench-{super().get_esp_message_id(message)}"
