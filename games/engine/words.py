"""The words a game's commands are written in, marked for the games' gettext catalogue.

A rules package stays pure (no Django): it lists the English words and phrases its parser
reads (`Game.command_words`), each marked with `pgettext("command", ...)`. That marker does
nothing here; its name is the one `makemessages` extracts, so every phrase lands in the
catalogue at games/rules/locale/, where a translator gives the words a player of that
language writes for it ("bouw|bouwen" for "build": the first is the one shown). The
platform (games.language) reads a command in any of the site's languages into these English
phrases before the game's own parser sees it, and writes a menu's commands back in the
player's language.
"""

from __future__ import annotations

COMMAND = "command"
JOINED = "joined"  # the context of a Text made by `joined`: in no catalogue, said as it is
WRAPPED = "wrapped"  # the context of a `Wrapped` line: its one part said, then wrapped
LISTED = "listed"  # the context of a `Listed` list: its lead and entries said, then laid out

# The one-word answers every game reads (games.commands.YES and NO); each game's words.py
# marks them for the catalogue.
ANSWER_WORDS = ("yes", "no")


def pgettext(context: str, message: str) -> Text:
    """`message`, marked as a message id with its context for the catalogue (a command
    word, or a thing's name in a game: a card, a building)."""
    return Text(message, None, context)


class Text(str):
    """A sentence or a name for a player: the English, which anything that takes it as a
    `str` reads, and the message id, context and parameters it was made from, so the
    platform can say it in the reader's language (games.language.localize). Joining it
    to other text (`+`, f-strings) gives plain English: keep it whole to the page."""

    __slots__ = ("context", "params", "template")

    def __new__(cls, template: str, params: dict | None = None, context: str = ""):
        text = super().__new__(cls, template.format(**params) if params else template)
        text.template, text.params, text.context = template, params or {}, context
        return text

    def __reduce__(self):
        return (Text, (self.template, self.params, self.context))

    def as_json(self) -> dict:
        """The message, its context and its parameters (Texts among them as theirs), as JSON
        keeps them: a projection that stores a Text (the match's prompt) says it later."""
        params = {k: v.as_json() if isinstance(v, Text) else v for k, v in self.params.items()}
        return {"text": self.template, "context": self.context, "params": params}

    @classmethod
    def from_json(cls, data: dict) -> Text:
        params = {
            k: cls.from_json(v) if isinstance(v, dict) and "text" in v else v
            for k, v in data.get("params", {}).items()
        }
        return cls(data["text"], params, data.get("context", ""))


def _(template: str, **params) -> Text:
    """`template`, a message id with {named} parameters, filled in; marked for the
    catalogue. A parameter may itself be a Text (a name), translated with it."""
    return Text(template, params)


def joined(parts, sep: str = " ") -> Text:
    """`parts` (Texts, names, numbers) joined by `sep` as one Text, each part translated
    on its own: a history line of several sentences, a text board of many lines. Its
    template is built here, so it is in no catalogue and is said as it is."""
    parts = list(parts)
    template = (
        sep.replace("{", "{{").replace("}", "}}").join(f"{{p{i}}}" for i in range(len(parts)))
    )
    return Text(template, {f"p{i}": part for i, part in enumerate(parts)}, JOINED)


class Wrapped(Text):
    """A line of a text board laid out to `width` columns: its value is the English as the
    rules wrapped it; another language says the Text it was made from and wraps that to the
    same width, continuation lines indented by `indent` (how long a translation is cannot
    be known in the rules)."""

    __slots__ = ()

    def __new__(cls, english: str, text: Text, width: int, indent: str):
        line = str.__new__(cls, english)
        line.template, line.context = "{p0}", WRAPPED
        line.params = {"p0": text, "width": width, "indent": indent}
        return line

    def __reduce__(self):
        p = self.params
        return (Wrapped, (str(self), p["p0"], p["width"], p["indent"]))


def entry_lines(lead: str, entries: list[str], width: int) -> list[str]:
    """`lead` and `entries` separated by commas in lines of `width` columns, broken only
    between entries ("Timber trade 1" is never split), continuation lines indented under the
    first entry."""
    groups: list[list[str]] = [[]]
    length = len(lead)
    for entry in entries:
        if groups[-1] and length + len(entry) + 1 > width:
            groups.append([])
            length = len(lead)
        groups[-1].append(entry)
        length += len(entry) + 2
    lines = [
        (lead if i == 0 else " " * len(lead)) + ", ".join(group) for i, group in enumerate(groups)
    ]
    return [line + "," for line in lines[:-1]] + lines[-1:]


class Listed(Text):
    """A lead and its entries as lines of a text board (`entry_lines`), in English as its
    value; another language says the lead and each entry and lays them out again."""

    __slots__ = ()

    def __new__(cls, lead: str, entries: list, width: int):
        text = str.__new__(cls, "\n".join(entry_lines(lead, entries, width)))
        text.template, text.context = "{p0}", LISTED
        text.params = {"width": width} | {f"p{i}": p for i, p in enumerate([lead, *entries])}
        return text

    def __reduce__(self):
        parts = [v for k, v in self.params.items() if k != "width"]
        return (Listed, (parts[0], parts[1:], self.params["width"]))
