"""What a game says, in the reader's language: `{{ match.prompt|said }}`.

A Text from a rules package (games.engine.words) is translated with its parameters; a plain
string (a prompt stored on the match) is looked up in the games' catalogue as it is, so a
prompt without parameters is translated too, and anything else stays as written."""

from django import template
from django.utils import translation

from games.engine.words import Text
from games.language import help_in, localize

register = template.Library()


@register.filter
def said(value):
    if isinstance(value, (Text, list, tuple)):
        return localize(value)
    if isinstance(value, str) and value:
        return translation.gettext(value)
    return value


@register.filter
def help_said(game):
    """`{{ game|help_said }}`: the game's help in the reader's language (games.language)."""
    return help_in(game)
