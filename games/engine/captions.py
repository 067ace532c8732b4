"""A name drawn inside a box on a board, in lines of 12 px text that fit its width: the
rules draw their English (games/rules/nieuwstad/view.py), the page says it in the reader's
language and breaks that the same way (games/templatetags/game_words.py)."""

from __future__ import annotations

LINE = 13  # SVG pixels from one 12 px line of a caption to the next

# Advance widths of a 12 px sans-serif (Liberation Sans, Arial's metrics, measured in
# Chromium); any other glyph counts as 6.7. A phone's sans-serif (Roboto, San Francisco) may
# run a little wider: LABEL_SLACK.
GLYPHS_12 = dict.fromkeys("fIijlt.'", 3.2) | dict.fromkeys("r-()", 4.0)
GLYPHS_12 |= dict.fromkeys("cksvxyzJ", 6.0) | dict.fromkeys("FTZß", 7.33)
GLYPHS_12 |= dict.fromkeys("ABEKPSVXY", 8.0) | dict.fromkeys("CDHNRUw", 8.67)
GLYPHS_12 |= dict.fromkeys("GOQ", 9.33) | dict.fromkeys("mM", 10.0) | {"W": 11.33, " ": 3.33}
LABEL_SLACK = 1.08
VOWELS = set("aeiouyäöüéèêëàâîïôûAEIOUY")


def text_width(text: str) -> float:
    """The width of `text` at 12 px, a little generous (LABEL_SLACK)."""
    return LABEL_SLACK * sum(GLYPHS_12.get(c, 6.7) for c in text)


def caption_lines(text: str, width: float) -> list[str]:
    """`text` broken into lines no wider than `width` at 12 px: between words, and a word too
    long for a line between two consonants near its middle, with a hyphen ("Watch-tower")."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
            continue
        while text_width(word) > width:
            cuts = [
                i
                for i in range(2, len(word) - 1)
                if word[i - 1] not in VOWELS
                and word[i] not in VOWELS
                and text_width(word[:i] + "-") <= width
            ] or [i for i in range(2, len(word) - 1) if text_width(word[:i] + "-") <= width]
            if not cuts:
                break
            # Near the middle, and before a consonant and a vowel, where a syllable starts.
            cut = min(
                cuts,
                key=lambda i: abs(i - len(word) / 2) + 0.75 * (word[i + 1] not in VOWELS),
            )
            lines.append(word[:cut] + "-")
            word = word[cut:]
        lines.append(word)
    return lines


def fitted_lines(text: str, width: float, room: int) -> list[str]:
    """`caption_lines`, with the lines beyond `room` squeezed into the last one."""
    lines = caption_lines(text, width)
    if len(lines) > room:
        lines[room - 1 :] = [" ".join(lines[room - 1 :])]
    return lines
