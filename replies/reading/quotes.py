"""The player's own text in a reply: above, below or between the quoted lines.

A reply is the player's lines mixed with what they answered. That is recognised by its
shape, the way clients write it, in the languages players use:

- quoted lines ("> ", and HTML quotes, which `html` marks the same way), also with
  initials or a name before the ">" (The Bat!'s " PB> ", "Frank>") or "|" instead;
- the email being answered, quoted under any other prefix or none (Outlook's "prefix each
  line"): recognised by its own text, which the caller passes in;
- attribution lines before a quote ("On ... wrote:", "Am ... schrieb ...:", "Le ... a
  écrit :", "Op ... heeft ... het volgende geschreven:", "El ... escribió:", "Il ... ha
  scritto:", "Em ... escreveu:", "Den ... skrev ...:", "... napisał(a):", "Dne ...
  napsal(a):", "Wiadomość napisana przez ... w dniu ...:"), also when the client wrapped
  them over two or three lines;
- original-message separators under which everything is the old message, unquoted:
  Outlook's "-----Original Message-----" and its header blocks ("From: / Sent: / To: /
  Subject:", "Von: / Gesendet: / An: / Betreff:", "De : / Envoyé : / À : / Objet :" ...),
  web.de's "Gesendet: / Von: / An: / Betreff:", Samsung's "-------- Original message
  --------", Gmail's "---------- Forwarded message ---------" and Apple's "Begin forwarded
  message:", each in the twelve languages;
- a signature after the "-- " line, up to the next quote.

Everything else is the player's: sign-offs and device footers are left for the command
reader, which passes over lines that are not commands and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# The verb that ends an attribution line, as clients write it in each language.
_WROTE = (
    r"wrote|writes|schrieb|schreibt|a écrit|a ecrit|schreef|het volgende geschreven|"
    r"geschreven|escribió|escribio|ha escrito|ha scritto|scrisse|escreveu|skrev|skriver|"
    r"napisał\(a\)|napisała|napisał|pisze|napsal\(a\)|napsala|napsal"
)
# The verb ends the line ("... wrote:") or comes before the name ("Am ... schrieb Anna:").
_ATTRIBUTION_END = re.compile(rf"(?i)(^|\W)({_WROTE})(\W.{{0,160}})?:\s*$")
_ATTRIBUTION_START_ONLY = re.compile(r"(?i)^wiadomość napisana przez .*:\s*$")
# How an attribution line begins, for joining one the client wrapped.
_OPENER = re.compile(
    r"(?i)^(on|am|le|op|el|il|em|no dia|den|dnia|w dniu|dne|"
    r"(mon|tue|wed|thu|fri|sat|sun|ma|di|wo|do|vr|za|zo|lun|mar|mer|jeu|ven|sam|dim|"
    r"mié|jue|vie|sáb|gio|seg|ter|qua|qui|sex|mån|tis|ons|tor|fre|lör|sön|man|tir|lør|søn|"
    r"pon|wt|śr|czw|pt|sob|niedz|po|út|st|čt|pá|so|ne)[a-zäöüéèçàáíóúåøæśłąężčřšžý]*\.?,?\s+\d|"
    r"\d{1,4}[./-]\s?\d{1,2}|\d{1,2}\.?\s+\w+\.?\s+\d{4})"
)
_PHRASES_ORIGINAL = (
    "original message|ursprüngliche nachricht|ursprüngliche mitteilung|message d'origine|"
    "message d’origine|message original|oorspronkelijk bericht|oorspronkelijk e-mailbericht|"
    "mensaje original|messaggio originale|mensagem original|ursprungligt meddelande|"
    "oprindelig meddelelse|opprinnelig melding|oryginalna wiadomość|wiadomość oryginalna|"
    "původní zpráva|původní e-mail|forwarded message|weitergeleitete nachricht|"
    "message transféré|doorgestuurd bericht|mensaje reenviado|messaggio inoltrato|"
    "mensagem encaminhada|vidarebefordrat meddelande|videresendt meddelelse|"
    "videresendt melding|wiadomość przekazana dalej|přeposlaná zpráva|reply message"
)
_SEPARATOR = re.compile(rf"(?i)^[-_=*\s]*({_PHRASES_ORIGINAL})[-_=*\s]*:?$")
_FORWARD_INTRO = re.compile(
    r"(?i)^(begin forwarded message|anfang der weitergeleiteten nachricht|"
    r"début du message réexpédié|début du message transféré|begin doorgestuurd bericht|"
    r"inicio del mensaje reenviado|comienzo del mensaje reenviado|inizio messaggio inoltrato|"
    r"início da mensagem reencaminhada|início da mensagem encaminhada|vidarebefordrat mejl|"
    r"videresendt besked|videresendt melding|videresendt e-post|"
    r"początek przekazywanej wiadomości|začátek přeposlané zprávy)\s*:?\s*$"
)
_HEADER_FROM = (
    r"from|von|de|van|da|från|fra|od|absender|afzender|remitente|mittente|remetente|"
    r"avsändare|afsender|avsender|nadawca|odesílatel"
)
_HEADER_OTHER = (
    r"sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|envoye|à|a|objet|verzonden|"
    r"aan|onderwerp|enviado|enviada|fecha|para|asunto|inviato|data|oggetto|assunto|skickat|"
    r"till|ämne|sendt|til|emne|wysłane|wysłano|do|temat|dw|odesláno|komu|předmět|kopie|"
    r"envoyé le|gesendet am"
)
_HEADER_LINE_FROM = re.compile(rf"(?i)^\**\s*({_HEADER_FROM})\s*:\**\s*\S")
_HEADER_LINE_OTHER = re.compile(rf"(?i)^\**\s*({_HEADER_OTHER})\s*:\**\s*\S")
_RULE = re.compile(r"^\s*([_\-=*]\s*){8,}$")
_SIGNATURE = ("--", "-- ", "—", "__")
# Unmarked lines beyond what a player writes: a turn email quoted under a prefix of its own,
# worth the cost of rendering the email again to recognise it.
_ORIGINAL_AFTER = 12


# A quote mark: ">" (nested or not), initials or a name before it as The Bat!, Eudora and
# Usenet readers write ("PB> ", "Frank>"), or "|".
_QUOTE_MARK = re.compile(r"^\s*(?:>|[^\W\d_]{1,20}>|\|)")
# A line of the answered email, to recognise it quoted under any prefix: long enough that
# a player's own command is never one.
_KNOWN_MIN = 10


def is_quoted(line: str) -> bool:
    return bool(_QUOTE_MARK.match(line))


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def lines_of_original(lines: list[str], original: str) -> set[int]:
    """Indexes of the lines that repeat the email being answered, whatever prefix the client
    put before them (Outlook's "prefix each line" with any prefix, or none): a prefix seen
    before three of its lines marks the lines that carry it from the first to the last of
    them, and the lines just above and below that still carry it (the quoted header block);
    without a prefix, five of its lines mark the span between the first and the last, with
    the separator and header block just above."""
    known = {_collapsed(ln) for ln in original.splitlines() if len(ln.strip()) >= _KNOWN_MIN}
    hits: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        for cut in range(min(len(line), 24) + 1):
            if _collapsed(line[cut:]) in known:
                hits.setdefault(line[:cut].strip(), []).append(index)
                break
    marked: set[int] = set()
    for prefix, found in hits.items():
        if prefix and len(found) >= 3:
            start, end = found[0], found[-1] + 1
            while start > 0 and lines[start - 1].lstrip().startswith(prefix):
                start -= 1
            while end < len(lines) and lines[end].lstrip().startswith(prefix):
                end += 1
            marked.update(i for i in range(start, end) if lines[i].lstrip().startswith(prefix))
        elif not prefix and len(found) >= 5:
            marked.update(range(_header_above(lines, found[0]), found[-1] + 1))
    return marked


def _header_above(lines: list[str], index: int) -> int:
    """Where the unquoted original starting at `index` really starts: with the separator
    and header block just above it ("-----Original Message-----", "From: ...")."""
    start = index
    for above in range(index - 1, max(index - 12, -1), -1):
        bare = lines[above].strip()
        if bare and not (
            _SEPARATOR.match(bare)
            or _RULE.match(bare)
            or _HEADER_LINE_FROM.match(bare)
            or _HEADER_LINE_OTHER.match(bare)
        ):
            break
        start = above if bare else start
    return start


def _header_block_at(lines: list[str], index: int) -> bool:
    """An original message's header block starts here: a From-like line and, within the
    next four lines, another header (or web.de's Sent line followed by From)."""
    first = lines[index].strip()
    if _HEADER_LINE_FROM.match(first):
        following = [ln.strip() for ln in lines[index + 1 : index + 5]]
        return any(_HEADER_LINE_OTHER.match(ln) for ln in following if ln)
    if _HEADER_LINE_OTHER.match(first) and index + 1 < len(lines):
        following = [ln.strip() for ln in lines[index + 1 : index + 3]]
        return any(_HEADER_LINE_FROM.match(ln) for ln in following if ln) and any(
            _HEADER_LINE_OTHER.match(ln) for ln in lines[index + 2 : index + 5]
        )
    return False


def original_message_start(lines: list[str]) -> int:
    """Index of the first line of an unquoted original or forwarded message, or len(lines)."""
    for index, line in enumerate(lines):
        if is_quoted(line):
            continue
        bare = line.strip()
        if not bare:
            continue
        if _SEPARATOR.match(bare) and any(c.isalpha() for c in bare):
            return _include_rule_above(lines, index)
        if _FORWARD_INTRO.match(bare) or _header_block_at(lines, index):
            return _include_rule_above(lines, index)
    return len(lines)


def _include_rule_above(lines: list[str], index: int) -> int:
    """Outlook draws a line of underscores above the header block: cut there."""
    above = index - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    if above >= 0 and _RULE.match(lines[above]):
        return above
    return index


def attribution_lines(lines: list[str]) -> set[int]:
    """Indexes of attribution lines, with the lines a client wrapped them over (Gmail breaks
    a long one inside the address: "Am ... schrieb Postal Boards <" / "play@...>:")."""
    found: set[int] = set()
    for index, line in enumerate(lines):
        bare = line.strip()
        if is_quoted(line) or not bare or len(bare) > 400 or index in found:
            continue
        if _ATTRIBUTION_START_ONLY.match(bare) or _ATTRIBUTION_END.search(bare):
            found.add(index)
            continue
        if not _OPENER.match(bare):
            continue
        joined = bare
        for below in (index + 1, index + 2):
            if below >= len(lines) or not lines[below].strip() or is_quoted(lines[below]):
                break
            joined += " " + lines[below].strip()
            if _ATTRIBUTION_END.search(joined):
                found.update(range(index, below + 1))
                break
    return found


def _unquoted_original_after(lines: list[str], attribution: set[int]) -> int:
    """A client that writes the original unquoted under its attribution line (Yahoo):
    everything from that line on is the original."""
    for index in sorted(attribution):
        if index + 1 in attribution:
            continue
        following = next((ln for ln in lines[index + 1 :] if ln.strip()), None)
        if following is not None and not is_quoted(following):
            return min(a for a in attribution if a <= index and all(
                b in attribution for b in range(a, index + 1)))  # fmt: skip
    return len(lines)


def own_text(text: str, original: Callable[[], str] | None = None) -> list[str]:
    """The player's own lines, in order, without quotes, attributions and signatures.
    `original` gives the text of the email answered, to recognise it quoted under a prefix
    nobody can guess; it is asked for only when more lines are left unmarked than a player
    writes."""
    lines = text.replace("\r\n", "\n").replace("\xa0", " ").split("\n")
    unmarked = sum(1 for line in lines if line.strip() and not is_quoted(line))
    if original is not None and unmarked > _ORIGINAL_AFTER:
        for index in lines_of_original(lines, original()):
            lines[index] = "> " + lines[index]
    lines = lines[: original_message_start(lines)]
    attribution = attribution_lines(lines)
    lines = lines[: _unquoted_original_after(lines, attribution)]
    kept: list[str] = []
    in_signature = False
    for index, line in enumerate(lines):
        if is_quoted(line) or index in attribution:
            in_signature = False
            continue
        if line.rstrip() in _SIGNATURE or line == "-- ":
            in_signature = True
            continue
        if not in_signature:
            kept.append(line.rstrip())
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    return kept
