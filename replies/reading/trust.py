"""What our own MX recorded about the sender (RFC 8601 Authentication-Results).

Anyone can write an Authentication-Results header into a message; only the one our MX adds
(its authserv-id, setting INBOUND_AUTHSERV_ID) is read, and of those only the topmost, the
last one added. An MX is expected to remove headers that claim its own id (RFC 8601 5), so
the topmost is ours. Without a configured id nothing is trusted and nothing is refused.
"""

from __future__ import annotations

import re
from email.message import Message

from .decode import raw_headers

_RESULT = re.compile(r"(?i)\b(spf|dmarc)\s*=\s*([a-z]+)")


def authentication_failures(message: Message, authserv_id: str) -> list[str]:
    """The failed checks ('dmarc=fail', 'spf=fail') our MX recorded; [] if none or unknown."""
    wanted = authserv_id.strip().lower()
    if not wanted:
        return []
    for value in raw_headers(message, "Authentication-Results"):
        head, _, results = value.partition(";")
        words = head.split()
        if not words or words[0].lower() != wanted:
            continue
        results = re.sub(r"\([^)]*\)", " ", results)  # comments say anything
        return [
            f"{method.lower()}=fail"
            for method, result in _RESULT.findall(results)
            if result.lower() == "fail"
        ]
    return []
