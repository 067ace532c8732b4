"""What a game says, in the reader's language: `{{ match.prompt|said }}`.

A Text from a rules package (games.engine.words) is translated with its parameters; a plain
string (a prompt stored on the match) is looked up in the games' catalogue as it is, so a
prompt without parameters is translated too, and anything else stays as written."""

from django import template
from django.utils import translation

from games.engine.captions import LINE, fitted_lines, text_width
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


@register.filter
def caption_said(caption):
    """A building's name in its box (games/rules/nieuwstad/view.py, "captions"): said in the
    reader's language and broken into the lines that fit the box, squeezed where the last
    line is still too wide (`fit`: the width it is drawn in)."""
    name = localize(caption["name"])
    lines = caption["lines"] if name == str(caption["name"]) else None
    lines = lines or fitted_lines(name, caption["width"], caption["room"])
    width = caption["width"]
    return [
        {
            "x": caption["x"],
            "y": caption["y"] + LINE * i,
            "text": line,
            "fit": width if text_width(line) > width else None,
        }
        for i, line in enumerate(lines)
    ]
