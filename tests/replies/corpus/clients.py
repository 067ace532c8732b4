"""How each mail client builds a reply: headers, MIME layout, transfer encoding, quoting and
attribution lines, as the clients write them (collected from real messages in public list
archives and test suites of reply parsers; see docs/notifications.md, "Replies").

Used by make_corpus.py (the corpus) and test_play_by_email.py (whole matches in real layouts).
"""

from __future__ import annotations

import base64
import quopri
import textwrap

OUR_ADDRESS = "play@reply.example.org"
OUR_NAME = "Postal Boards"
OUR_MESSAGE_ID = "<n5.turn@reply.example.org>"
THREAD_ROOT = "<match-1.seat-1@reply.example.org>"
SUBJECT = "[Sealed Cards #1] Your turn: play a card to trick 1"
PLAYER = "Anna Example"
DATE = "Mon, 30 Nov 2026 15:23:41 +0100"

# The turn email as we send it (its text part), which the clients quote.
ORIGINAL_TEXT = """Hello Anna,

It is your turn in Sealed Cards #1: play a card to trick 1.

The position
------------
Trick 1 of 3
  Ben            0 points
  Anna           0 points
Your hand: [6] [9] [10]

Your choices
------------
  1. play 6
  2. play 9
  3. play 10

Deadline: Thu 03 Dec 2026, 16:46 UTC (in 2 days, 23 hours)

How to reply
------------
Reply to this email.
Put your move on the first line: the number of a choice, or the
command itself (for example "play 6").
Where the rules let you play several moves in a row, write one per line.
Other commands, one per line:
    status       the position again
    help         the commands of this game
    say <text>   post <text> to the match's chat
    resign       leave the match (a bot plays your seat on)

Open the match in your browser (signs you in): https://boards.example.org/login/link/?sesame=AAAAAQ0Bx1qNV6_oxRpuqbNN&next=/matches/1/

-- 
Postal Boards - https://boards.example.org
What we send you and when: https://boards.example.org/n/preferences/
"""  # noqa: W291

ORIGINAL_HTML = """<p>Hello Anna,</p>
<p>It is your turn in <strong>Sealed Cards #1</strong>: play a card to trick 1.</p>
<h3>The position</h3>
<pre>Trick 1 of 3
  Ben            0 points
  Anna           0 points
Your hand: [6] [9] [10]</pre>
<h3>Your choices: play a card to trick 1</h3>
<ol><li>play 6</li><li>play 9</li><li>play 10</li></ol>
<p><strong>Deadline:</strong> Thu 03 Dec 2026, 16:46 UTC (in 2 days, 23 hours)</p>
<h3>How to reply</h3>
<p>Reply to this email. Put your move on the first line: the number of a choice, or the
command itself (for example <code>play 6</code>).</p>
<p><a href="https://boards.example.org/login/link/?sesame=AAAA&amp;next=/matches/1/">
Open Sealed Cards #1 in your browser</a></p>
<hr><p><a href="https://boards.example.org">Postal Boards</a> &middot;
<a href="https://boards.example.org/n/preferences/">What we send you and when</a></p>"""

# --- attribution lines and separators, per client and language ------------------------

GMAIL_ATTRIBUTION = {
    "en": "On Mon, Nov 30, 2026 at 3:11\u202fPM {name} <{addr}> wrote:",
    "de": "Am Mo., 30. Nov. 2026 um 15:11 Uhr schrieb {name} <{addr}>:",
    "fr": "Le lun. 30 nov. 2026 à 15:11, {name} <{addr}> a écrit :",
    "nl": "Op ma 30 nov 2026 om 15:11 schreef {name} <{addr}>:",
    "es": "El lun, 30 nov 2026 a las 15:11, {name} (<{addr}>) escribió:",
    "it": "Il giorno lun 30 nov 2026 alle ore 15:11 {name} <{addr}> ha scritto:",
    "pt": "Em seg., 30 de nov. de 2026 às 15:11, {name} <{addr}> escreveu:",
    "sv": "Den mån 30 nov. 2026 kl 15:11 skrev {name} <{addr}>:",
    "da": "Den man. 30. nov. 2026 kl. 15.11 skrev {name} <{addr}>:",
    "no": "man. 30. nov. 2026 kl. 15:11 skrev {name} <{addr}>:",
    "pl": "pon., 30 lis 2026 o 15:11 {name} <{addr}> napisał(a):",
    "cs": "po 30. 11. 2026 v 15:11 odesílatel {name} <{addr}> napsal:",
}
GMAIL_FORWARD = {
    "en": "---------- Forwarded message ---------",
    "de": "---------- Weitergeleitete Nachricht ---------",
    "fr": "---------- Forwarded message ---------",
    "nl": "---------- Doorgestuurd bericht ---------",
    "es": "---------- Mensaje reenviado ---------",
    "it": "---------- Messaggio inoltrato ---------",
}
APPLE_ATTRIBUTION = {
    "en": "On 30 Nov 2026, at 15:11, {name} <{addr}> wrote:",
    "de": "Am 30.11.2026 um 15:11 schrieb {name} <{addr}>:",
    "fr": "Le 30 nov. 2026 à 15:11, {name} <{addr}> a écrit :",
    "nl": "Op 30 nov 2026, om 15:11 heeft {name} <{addr}> het volgende geschreven:",
    "es": "El 30 nov 2026, a las 15:11, {name} <{addr}> escribió:",
    "it": "Il giorno 30 nov 2026, alle ore 15:11, {name} <{addr}> ha scritto:",
    "pt": "No dia 30/11/2026, às 15:11, {name} <{addr}> escreveu:",
    "sv": "30 nov. 2026 kl. 15:11 skrev {name} <{addr}>:",
    "da": "Den 30. nov. 2026 kl. 15.11 skrev {name} <{addr}>:",
    "no": "30. nov. 2026 kl. 15:11 skrev {name} <{addr}>:",
    "pl": "Wiadomość napisana przez {name} <{addr}> w dniu 30.11.2026, o godz. 15:11:",
    "cs": "Dne 30. 11. 2026 v 15:11, {name} <{addr}> napsal(a):",
}
APPLE_FORWARD = {
    "en": "Begin forwarded message:",
    "de": "Anfang der weitergeleiteten Nachricht:",
    "fr": "Début du message réexpédié :",
}
IPHONE_FOOTER = {
    "en": "Sent from my iPhone",
    "de": "Von meinem iPhone gesendet",
    "fr": "Envoyé de mon iPhone",
    "nl": "Verstuurd vanaf mijn iPhone",
    "es": "Enviado desde mi iPhone",
    "it": "Inviato da iPhone",
    "pt": "Enviado do meu iPhone",
    "sv": "Skickat från min iPhone",
    "da": "Sendt fra min iPhone",
    "no": "Sendt fra min iPhone",
    "pl": "Wysłane z iPhone'a",
    "cs": "Odesláno z iPhonu",
}
THUNDERBIRD_ATTRIBUTION = {
    "en": "On 11/30/26 15:11, {name} wrote:",
    "de": "Am 30.11.26 um 15:11 schrieb {name}:",
    "fr": "Le 30/11/2026 à 15:11, {name} a écrit :",
    "nl": "Op 30-11-2026 om 15:11 schreef {name}:",
    "es": "El 30/11/26 a las 15:11, {name} escribió:",
    "it": "Il 30/11/26 15:11, {name} ha scritto:",
    "pt": "Em 30/11/2026 15:11, {name} escreveu:",
    "sv": "Den 2026-11-30 kl. 15:11, skrev {name}:",
    "da": "Den 30.11.2026 kl. 15.11 skrev {name}:",
    "no": "Den 30.11.2026 15:11, skrev {name}:",
    "pl": "W dniu 30.11.2026 o 15:11, {name} pisze:",
    "cs": "Dne 30. 11. 26 v 15:11 {name} napsal(a):",
}
# Outlook's header block: From, Sent, To, Subject and the reply prefix, per language.
OUTLOOK_HEADERS = {
    "en": ("From", "Sent", "To", "Subject", "RE", "Monday, November 30, 2026 3:11 PM"),
    "de": ("Von", "Gesendet", "An", "Betreff", "AW", "Montag, 30. November 2026 15:11"),
    "fr": (
        "De\u00a0",
        "Envoyé\u00a0",
        "À\u00a0",
        "Objet\u00a0",
        "RE\u00a0",
        "lundi 30 novembre 2026 15:11",
    ),
    "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "RE", "maandag 30 november 2026 15:11"),
    "es": ("De", "Enviado el", "Para", "Asunto", "RE", "lunes, 30 de noviembre de 2026 15:11"),
    "it": ("Da", "Inviato", "A", "Oggetto", "R", "lunedì 30 novembre 2026 15:11"),
    "pt": ("De", "Enviado", "Para", "Assunto", "RE", "segunda-feira, 30 de novembro de 2026 15:11"),
    "sv": ("Från", "Skickat", "Till", "Ämne", "SV", "den 30 november 2026 15:11"),
    "da": ("Fra", "Sendt", "Til", "Emne", "SV", "30. november 2026 15:11"),
    "no": ("Fra", "Sendt", "Til", "Emne", "SV", "mandag 30. november 2026 15:11"),
    "pl": ("Od", "Wysłano", "Do", "Temat", "ODP", "poniedziałek, 30 listopada 2026 15:11"),
    "cs": ("Od", "Odesláno", "Komu", "Předmět", "RE", "pondělí 30. listopadu 2026 15:11"),
}
OUTLOOK_ORIGINAL = {
    "en": "-----Original Message-----",
    "de": "-----Ursprüngliche Nachricht-----",
    "fr": "-----Message d'origine-----",
    "nl": "-----Oorspronkelijk bericht-----",
    "es": "-----Mensaje original-----",
    "it": "-----Messaggio originale-----",
    "pt": "-----Mensagem original-----",
    "sv": "-----Ursprungligt meddelande-----",
    "da": "-----Oprindelig meddelelse-----",
    "no": "-----Opprinnelig melding-----",
    "pl": "-----Oryginalna wiadomość-----",
    "cs": "-----Původní zpráva-----",
}
SAMSUNG = {
    "en": (
        "Sent from my Galaxy",
        "-------- Original message --------",
        "From",
        "Date",
        "To",
        "Subject",
    ),
    "de": (
        "Von meinem Samsung Galaxy Smartphone gesendet.",
        "-------- Ursprüngliche Nachricht --------",
        "Von",
        "Datum",
        "An",
        "Betreff",
    ),
    "fr": (
        "Envoyé depuis mon appareil Galaxy",
        "-------- Message d'origine --------",
        "De",
        "Date",
        "À",
        "Objet",
    ),
    "es": (
        "Enviado desde mi Galaxy",
        "-------- Mensaje original --------",
        "De",
        "Fecha",
        "Para",
        "Asunto",
    ),
    "it": (
        "Inviato dal mio Galaxy",
        "-------- Messaggio originale --------",
        "Da",
        "Data",
        "A",
        "Oggetto",
    ),
    "pl": (
        "Wysłane z mojego Galaxy",
        "-------- Oryginalna wiadomość --------",
        "Od",
        "Data",
        "Do",
        "Temat",
    ),
}
LANGUAGE_TAGS = {
    "en": "en-GB",
    "de": "de-DE",
    "fr": "fr-FR",
    "nl": "nl-NL",
    "es": "es-ES",
    "it": "it-IT",
    "pt": "pt-PT",
    "sv": "sv-SE",
    "da": "da-DK",
    "no": "nb-NO",
    "pl": "pl-PL",
    "cs": "cs-CZ",
}
WINDOWS_CHARSET = {"pl": "iso-8859-2", "cs": "iso-8859-2"}


def attribution(template: str) -> str:
    return template.format(name=OUR_NAME, addr=OUR_ADDRESS)


# --- MIME by hand, the way the clients write it -----------------------------------------


def encode(text: str, charset: str, cte: str) -> bytes:
    data = text.replace("\n", "\r\n").encode(charset, "replace")
    if cte == "quoted-printable":
        return quopri.encodestring(data).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if cte == "base64":
        return base64.encodebytes(data).replace(b"\n", b"\r\n")
    return data


def leaf(content_type: str, text: str, charset: str, cte: str) -> bytes:
    head = f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
    return head.encode() + encode(text, charset, cte)


def multipart(subtype: str, boundary: str, parts: list[bytes], preamble: str = "") -> bytes:
    out = [f'Content-Type: multipart/{subtype}; boundary="{boundary}"\r\n\r\n'.encode()]
    if preamble:
        out.append(preamble.encode() + b"\r\n")
    for part in parts:
        out.append(f"--{boundary}\r\n".encode() + part + b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out)


def message(headers: list[tuple[str, str]], body: bytes) -> bytes:
    """Top-level headers, then the body (which starts with its own Content-* headers)."""
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return lines.encode("utf-8") + body


def quote(text: str, prefix: str = "> ") -> str:
    return "\n".join((prefix + line) if line else prefix.rstrip() for line in text.split("\n"))


def flow(text: str, width: int = 72) -> str:
    """format=flowed as Thunderbird writes it: long lines soft-wrapped with a trailing space,
    quoted lines keep their prefix, lines starting with a space or 'From ' space-stuffed."""
    out = []
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        prefix = ">" * depth + (" " if depth else "")
        content = line[depth:].lstrip(" ") if depth else line
        if not depth and (content.startswith(" ") or content.startswith("From ")):
            content = " " + content
        if len(prefix + content) <= width or content == "-- ":
            out.append(prefix + content)
            continue
        pieces = textwrap.wrap(
            content,
            width - len(prefix),
            break_long_words=False,
            drop_whitespace=False,
            replace_whitespace=False,
        )
        for piece in pieces[:-1]:
            out.append(prefix + (piece if piece.endswith(" ") else piece + " "))
        out.append(prefix + pieces[-1])
    return "\n".join(out)


def gmail_wrap(line: str, width: int = 78) -> str:
    """Gmail's text part hard-wraps a long attribution line, breaking inside '<address>'."""
    if len(line) <= width:
        return line
    cut = line.rfind("<", 0, width)
    if cut <= 0:
        return line
    return line[: cut + 1] + "\n" + line[cut + 1 :]


def html_lines(lines: list[str], wrap: str = "<div>{}</div>") -> str:
    from html import escape

    return "".join(wrap.format(escape(line) if line else "<br>") for line in lines)


def reply_headers(
    *,
    message_id: str,
    subject_prefix: str = "Re",
    date: str = DATE,
    extra: list[tuple[str, str]] | None = None,
    sender: str = f"{PLAYER} <SENDER>",
    to: str = f"{OUR_NAME} <REPLY_ADDRESS>",
    subject: str | None = None,
) -> list[tuple[str, str]]:
    headers = [
        ("Return-Path", "<SENDER>"),
        ("Delivered-To", "REPLY_ADDRESS"),
        ("MIME-Version", "1.0"),
        ("Date", date),
        ("From", sender),
        ("To", to),
        ("Subject", subject if subject is not None else f"{subject_prefix}: {SUBJECT}"),
        ("Message-ID", message_id),
        ("In-Reply-To", OUR_MESSAGE_ID),
        ("References", f"{THREAD_ROOT} {OUR_MESSAGE_ID}"),
    ]
    return headers + (extra or [])
