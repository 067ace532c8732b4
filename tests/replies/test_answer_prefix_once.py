"""A refused line's answer says "not applied" once, in the reader's words (issue 41: the
Dutch subject read "Niet verwerkt: ...: Niet verwerkt: Ik begreep ...")."""

import pytest
from django.utils import translation

from replies.inbound import Report, summary_of

PREFIXES = {
    "en": "Not applied",
    "nl": "Niet verwerkt",
    "de": "Nicht ausgeführt",
    "fr": "Non appliqué",
}


@pytest.mark.parametrize("language", sorted(PREFIXES))
def test_the_refusal_prefix_is_said_once(language):
    from django.utils.translation import gettext

    with translation.override(language):
        report = Report()
        refused = gettext("Not applied: %(message)s") % {"message": "I did not understand it."}
        report.add("frobnicate", refused)
        report.failed = "frobnicate"
        subject, _intro = summary_of(report)
    assert subject.count(PREFIXES[language]) == 1, subject
    assert "frobnicate" in subject and subject.endswith(": I did not understand it."), subject
