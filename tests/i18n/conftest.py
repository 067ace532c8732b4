import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_after():
    """A request with Accept-Language leaves its language active in the test's thread (Django's
    LocaleMiddleware activates, nothing deactivates): the tests after these read English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)
