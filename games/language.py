"""Commands in the player's language (issue 31, item 3).

A game's parser reads English. Each game lists the English words and phrases its commands
use (`Game.command_words`, marked with the context "command"); the games' catalogue gives,
for each of the site's languages, the words a player writes for each one, separated by "|"
(the first is the one shown). So a Dutch player's `bouw huis E4 noord` is read as
`build house E4 facing north`, and the menu in their turn email says `bouw huis bij E4
richting noord`. English words always work.

A word is looked up in every language at once, longest phrase first: the player's own
language decides what it means, then English; a word that means different things in two
other languages is refused with its meanings listed, never guessed.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import textwrap
import unicodedata
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from django.conf import settings
from django.utils import translation

from games.engine import Game, ParseError
from games.engine.words import ANSWER_WORDS, COMMAND, JOINED, LISTED, WRAPPED, Text, entry_lines

# A word: letters (and apostrophes inside, as in French "d'accord"); "E4" and "12" are not.
_WORD = re.compile(r"(?<![\w'’])[^\W\d_]+(?:['’][^\W\d_]+)*(?![\w'’])")
LONGEST = 6  # words in the longest phrase of any catalogue ("fête de la Saint-Jean": 5)


def _plain(word: str, *, loose: bool, short: bool = False) -> str:
    """A word as compared: casefolded; `loose`, also without accents (a player without a
    French keyboard writes "demolis", a German one "Huette"), which only words of three
    letters or more allow, so French "à" never swallows a column letter "A"; `short`, a
    word of a phrase, which it cannot swallow ("face a l'est")."""
    word = unicodedata.normalize("NFKC", word).casefold().replace("’", "'")
    if loose and (short or len(word) > 2):
        bare = unicodedata.normalize("NFKD", word)
        word = "".join(c for c in bare if not unicodedata.combining(c))
        # German without umlauts on the keyboard: "Huette" is "Hütte", as "Hutte" is.
        word = word.replace("ae", "a").replace("oe", "o").replace("ue", "u")
    return word


def _key(words: list[str], *, loose: bool) -> tuple[str, ...]:
    return tuple(_plain(w, loose=loose, short=len(words) > 1) for w in words)


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def current_language() -> str:
    return (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]


@functools.cache
def _written(words: tuple[str, ...], language: str) -> dict[str, list[str]]:
    """English phrase -> the ways a player of `language` writes it (English: itself)."""
    if language == "en":
        return {phrase: [phrase] for phrase in words}
    with translation.override(language):
        return {
            phrase: [w.strip() for w in translation.pgettext(COMMAND, phrase).split("|")]
            for phrase in words
        }


@functools.cache
def _reading(words: tuple[str, ...], language: str, loose: bool) -> dict[tuple, str]:
    """What each written phrase of `language` means: compared form -> English phrase. Where
    a language writes two phrases alike (German "Gulden" is guilder and guilders), the
    first the game lists is meant."""
    table: dict[tuple, str] = {}
    for phrase, written in _written(words, language).items():
        for text in written:
            key = _key(_WORD.findall(text), loose=loose)
            if key:
                table.setdefault(key, phrase)
    return table


def vocabulary(game: Game) -> tuple[str, ...]:
    return tuple(getattr(game, "command_words", ())) + ANSWER_WORDS


def _meanings(words: tuple[str, ...], found: list[str]) -> tuple[int, dict[str, str]]:
    """The longest phrase starting at found[0] in any language: (its length in words,
    language -> the English phrase it means there)."""
    best: int = 0
    meanings: dict[str, str] = {}
    for language in languages():
        for loose in (False, True):
            table = _reading(words, language, loose)
            for n in range(min(LONGEST, len(found)), best - 1, -1):
                meant = table.get(_key(found[:n], loose=loose))
                if meant and n >= best:
                    if n > best:
                        best, meanings = n, {}
                    meanings.setdefault(language, meant)
                    break
    return best, meanings


def _language_name(code: str) -> str:
    return dict(settings.LANGUAGES).get(code, code)


def to_english(
    game: Game, text: str, language: str | None = None, names: Sequence[str] = ()
) -> str:
    """`text` with each word of the game's commands, written in any of the site's languages,
    put in English; other words (names, places, numbers) as they were. A word whose meaning
    depends on the language, where neither the player's own nor English decides, is a
    ParseError listing what it may mean. A player's name among `names` is kept as written:
    Femke Bakker is not "Femke baker"."""
    language = language or current_language()
    words = vocabulary(game)
    found = list(_WORD.finditer(text))
    named = _named(text, names)
    out, done, i = [], 0, 0
    unclear: list[str] = []
    while i < len(found):
        if found[i].start() in named:
            i += 1
            continue
        length, meanings = _meanings(words, [m.group() for m in found[i : i + LONGEST]])
        if not length:
            i += 1
            continue
        meant = meanings.get(language) or meanings.get("en")
        if meant is None and len(set(meanings.values())) == 1:
            meant = next(iter(meanings.values()))
        span = text[found[i].start() : found[i + length - 1].end()]
        if meant is None:
            readings = [
                f"“{english}” ({_language_name(code)})"
                for code, english in sorted(meanings.items())
            ]
            unclear.append(f"“{span}” may mean " + " or ".join(readings))
        else:
            out += [text[done : found[i].start()], meant]
            done = found[i + length - 1].end()
        i += length
    if unclear:
        raise ParseError(
            "; ".join(unclear) + ". Write it in English or in your own language's words."
        )
    return "".join(out) + text[done:]


def _named(text: str, names: Sequence[str]) -> set[int]:
    """Where in `text` a player's name stands: each of its characters' offsets. A whole name
    as written in any case, or a part of one with its capital ("met Bakker"), not the line's
    first word (a command's, however it is written)."""
    offsets: set[int] = set()
    for name in names:
        for found in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE):
            offsets.update(range(found.start(), found.end()))
        for part in _WORD.findall(name):
            for found in re.finditer(rf"(?<![\w'’]){re.escape(part)}(?![\w'’])", text):
                if found.start() > 0 and part[:1].isupper():
                    offsets.update(range(found.start(), found.end()))
    return offsets


# What people write around a command in each language: "kaufe Grundplan bitte", "graag neem
# bos G3", "achète la tuile 8 s'il te plaît". Read in any language, like the command words.
COURTESY = (
    r"please|pls|plz|thanks|thank you|thx|bitte|bitte sch[oö]n|danke|danke sch[oö]n|graag"
    r"|alsjeblieft|alstublieft|a\.?u\.?b\.?|dank ?je( wel)?|dank ?u( wel)?|bedankt"
    r"|s'il (te|vous) pla[iî]t|svp|stp|merci( beaucoup)?"
)
# ... and the words that start a sentence before it: "Ok, 3 cartes", "Nou, pas", "Also,
# baue Hütte", "Alors prends la forêt".
FILLERS = r"ok|oké|okay|okey|alors|bon|eh bien|nou|also|so"
_AROUND = re.compile(
    rf"^(?:(?:{COURTESY}|{FILLERS})\b[\s,.!;:]*)+|(?:[\s,.!;:]+(?:{COURTESY}))+[\s.!]*$",
    re.IGNORECASE,
)
# Articles a language puts between a verb and its thing ("achète la tuile 8", "baue die
# Hütte", "neem het bos"), and French elision ("l'atelier").
ARTICLES = frozenset(
    "the a an le la les un une des du het een de der die das den dem ein eine einen einem".split()
)
_ELIDED = re.compile(r"(?<![\w'’])[lL]['’](?=\w)")


# A smiley, an emoji or a sentence's end after a command ("neem bos F2 graag :)", "passe 👍",
# "joue fête dans SW !").
_FACES = re.compile(
    r"(?:\s*(?:[:;=]-?[()DPp]|[\u2600-\u27bf\U0001f300-\U0001faff]\ufe0f?|[.!]+))+\s*$"
)


def loosely(word: str) -> str:
    """A word as the command words are compared loosely: "Holzfaeller" as "Holzfäller"."""
    return _plain(word, loose=True)


def courteously(text: str) -> str:
    """`text` without the courtesy around it: a polite word is never part of a command, and
    a parser could take one for a word of its own (Nieuwstad read "graag" as guilders)."""
    plain = _FACES.sub("", text.strip())
    return _AROUND.sub("", plain).strip() or text.strip()


def plainly(text: str) -> str:
    """`text` without courtesy and without articles after its first word: what the game's
    parser reads when the text as written was not understood."""
    text = _ELIDED.sub("", courteously(text))
    first, _, rest = text.partition(" ")
    kept = [w for w in rest.split(" ") if w.casefold() not in ARTICLES]
    return " ".join([first, *kept]).strip()


def first_words(game: Game, heads: set[str]) -> set[str]:
    """The words, in every language, that a command of the game starting with one of the
    English `heads` may start with (compared form): "bouw" and "baue" for "build". How a
    reply's command line is told from a greeting or a sign-off ("Met vriendelijke groet"
    starts with "with", which starts no command)."""
    words = vocabulary(game)
    return {
        _plain(written.split()[0], loose=loose)
        for language in languages()
        for phrase, forms in _written(words, language).items()
        if phrase.split()[0] in heads and phrase not in ANSWER_WORDS
        for written in forms
        if written.split()
        for loose in (False, True)
    }


def mail_command(
    line: str, language: str | None = None, commands: tuple[str, ...] = ()
) -> tuple[str, str] | None:
    """(the English word, the rest of the line) when `line` starts with one of the mail's
    own commands (games.rules.mail_words; `commands` instead if given) in any language:
    "geef op" is ("resign", "")."""
    from games.rules.mail_words import MAIL_COMMANDS

    language = language or current_language()
    words = tuple(commands or MAIL_COMMANDS)
    found = list(_WORD.finditer(line))
    if not found or line[: found[0].start()].strip():
        return None
    length, meanings = _meanings(words, [m.group() for m in found[:LONGEST]])
    if not length:
        return None
    meant = meanings.get(language) or meanings.get("en")
    if meant is None and len(set(meanings.values())) == 1:
        meant = next(iter(meanings.values()))
    if meant is None:
        return None
    return meant, line[found[length - 1].end() :].strip()


def written_as(words: tuple[str, ...], english: str, language: str | None = None) -> str:
    """How `language` first writes the command `english`, one of `words`."""
    forms = _written(tuple(words), language or current_language()).get(english) or [english]
    return forms[0]


def mail_command_words() -> set[str]:
    """The first words of the mail's own commands in every language (compared form)."""
    from games.rules.mail_words import MAIL_COMMANDS

    return {
        _plain(written.split()[0], loose=loose)
        for language in languages()
        for forms in _written(tuple(MAIL_COMMANDS), language).values()
        for written in forms
        if written.split()
        for loose in (False, True)
    }


def answer_words() -> set[str]:
    """Yes and no in every language, as a one-word reply writes them ("Ja", "oui")."""
    return {
        _plain(written, loose=loose)
        for language in languages()
        for forms in _written(ANSWER_WORDS, language).values()
        for written in forms
        for loose in (False, True)
    }


def in_language(game: Game, command: str, language: str | None = None) -> str:
    """An English command of the game written in `language` (the words a player of it
    writes first), ready to be read back by `to_english`."""
    language = language or current_language()
    if language == "en" or not command:
        return command
    words = vocabulary(game)
    written = _written(words, language)
    english = _reading(words, "en", False)
    found = list(_WORD.finditer(command))
    out, done, i = [], 0, 0
    while i < len(found):
        for n in range(min(LONGEST, len(found) - i), 0, -1):
            meant = english.get(_key([m.group() for m in found[i : i + n]], loose=False))
            if meant:
                out += [command[done : found[i].start()], written[meant][0]]
                done = found[i + n - 1].end()
                i += n
                break
        else:
            i += 1
    return "".join(out) + command[done:]


# --- what the games say -------------------------------------------------------------------


def refusal_in(game: Game, refusal: Any, language: str | None = None) -> str:
    """A game's refusal in `language`, the commands it quotes ('accept' or 'decline') in the
    language's command words where the translation quotes them as the English does."""
    language = language or current_language()
    if language == "en" or not isinstance(refusal, Text):
        return localize(refusal, language)
    said = localize(_commands_in(game, refusal, language), language)
    for quoted in set(re.findall(r"'([^'\n]+)'", str(refusal))):
        if f"'{quoted}'" in said:
            said = said.replace(f"'{quoted}'", f"'{in_language(game, quoted, language)}'")
    return said


def _commands_in(game: Game, text: Text, language: str) -> Text:
    """`text` with its plain parameters (the rules' examples: "take forest A1; take forest
    C1") in the language's command words; its sentences are said by the catalogue."""

    def worded(value: Any) -> Any:
        if isinstance(value, Text):
            return _commands_in(game, value, language)
        return in_language(game, value, language) if isinstance(value, str) else value

    if not text.params:
        return text
    return Text(text.template, {k: worded(v) for k, v in text.params.items()}, text.context)


def help_in(game: Game, language: str | None = None) -> str:
    """The game's help in `language` (the active one by default): its sentences from the
    catalogue, its example commands in the language's command words, which read back."""
    language = language or current_language()
    return in_language(game, localize(game.help_text(), language), language)


def localize(value: Any, language: str | None = None) -> Any:
    """`value` in `language` (the active one by default): a Text (games.engine.words) from
    the games' catalogue with its parameters, themselves translated; lists, tuples and
    dicts item by item; anything else as it is (English from a game that has not marked it,
    names of players, numbers)."""
    with translation.override(language) if language else nullcontext():
        return _localized(value)


def _localized(value: Any) -> Any:
    if isinstance(value, Text):
        return _say(value)
    if type(value) in (list, tuple):  # not a NamedTuple: its fields are not a sequence
        return type(value)(_localized(v) for v in value)
    if isinstance(value, dict):
        return {k: _localized(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a reference table
        return dataclasses.replace(
            value, **{f.name: _localized(getattr(value, f.name)) for f in dataclasses.fields(value)}
        )
    return value


# French sets a no-break space before a colon and a narrow one before ; ! and ? ("Anna : 3
# points ; Ben : 2"); a mark that ends no phrase (16:46, https://, a smiley) is left alone.
_FRENCH_MARK = re.compile(r"(?<=[^\s;:!?])[ \u00a0\u202f]?([;:!?])(?=\s|$)")


# The words a rules package joins parts with (`joined(parts, " and ")`): said in the reader's
# language; the state keeps the English, so a log's digests do not change.
CONJUNCTIONS = {
    "and": translation.pgettext_lazy("joined", "and"),
    "or": translation.pgettext_lazy("joined", "or"),
}
_CONJUNCTION = re.compile(r"(?<=\}) (and|or) (?=\{)")


def typeset(text: str, language: str | None = None) -> str:
    """`text` with the spacing `language` (the active one by default) puts before its
    punctuation: French's, where the text was joined by code or written with a plain space."""
    if (language or current_language()) != "fr":
        return text
    return _FRENCH_MARK.sub(lambda m: ("\u00a0" if m[1] == ":" else "\u202f") + m[1], text)


def _say(text: Text) -> str:
    if not text.template:
        return ""
    if text.context == WRAPPED:
        return _rewrapped(text)
    if text.context == LISTED:
        parts = [_localized(v) for k, v in text.params.items() if k != "width"]
        return "\n".join(entry_lines(parts[0], parts[1:], text.params["width"]))
    if text.context == JOINED:  # its words, if any, are the separators' ("wood and stone")
        template = _CONJUNCTION.sub(lambda m: f" {CONJUNCTIONS[m[1]]} ", text.template)
    elif text.context:
        template = translation.pgettext(text.context, text.template)
    else:
        template = translation.gettext(text.template)
    if not text.params:
        return template
    params = {k: _localized(v) for k, v in text.params.items()}
    try:
        said = template.format(**params)
    except (KeyError, IndexError, ValueError):  # a translation that lost a {parameter}
        return str(text)
    # Joined by code ("Anna", ": ", "3", "; "): the language's spacing, which no translator set.
    return typeset(said) if text.context == JOINED else said


def _rewrapped(line: Text) -> str:
    """A text board's line laid out by the rules (games.engine.words.Wrapped): as it is in
    English, else said and wrapped to the board's width again."""
    words, width, indent = line.params["p0"], line.params["width"], line.params["indent"]
    said = _localized(words)
    if said == str(words):
        return str(line)
    if len(said) <= width:
        return said
    # A line's own leading spaces (a list's indent) stay on its first line.
    wrapped = textwrap.wrap(
        said, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(wrapped)


def untranslated(value: Any, language: str) -> list[str]:
    """The message ids in `value` (Texts, nested as `localize` walks them) that the
    catalogues do not hold for `language`: what a player of it would read in English."""
    from django.utils.translation import trans_real

    catalog = trans_real.translation(language)._catalog
    missing: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, Text):
            if v.template and v.context != JOINED and _WORD.search(v.template):
                key = f"{v.context}\x04{v.template}" if v.context else v.template
                if key not in catalog:
                    missing.append(f"{v.context}|{v.template}" if v.context else v.template)
            for p in v.params.values():
                walk(p)
        elif type(v) in (list, tuple):
            for item in v:
                walk(item)
        elif isinstance(v, dict):
            for item in v.values():
                walk(item)

    walk(value)
    return missing
