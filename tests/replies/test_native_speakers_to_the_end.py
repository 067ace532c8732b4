"""Dutch, German and French players play a whole match of each game by mail, typing as
native speakers do after reading the mail (issue 41): a greeting, the command in their
words with capitals, a polite word before or after it, an article where their language puts
one, ae/oe/ue for umlauts, accents left out, a signature; replying with the mail clients of
their country, which quote the turn mail in their own layouts and languages. Every reply
goes through `manage.py receive_email` as an MTA pipes it; every move must be applied, and
every mail the players get, from the invitation to the end, is read for English.

The English words are written here (not taken from the catalogues, which could be wrong in
the same way as the code): the words of our mails and of the three games' commands and
components that no Dutch, German or French sentence uses.
"""

from __future__ import annotations

import email
import io
import random
import re
import sys
import unicodedata
from datetime import datetime
from email.policy import default as default_policy
from email.utils import format_datetime, make_msgid

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games import language, services
from games.models import MatchStatus
from games.selectors import load_state
from players.models import Preferences
from replies.models import InboundMessage, InboundStatus
from tests.i18n.reading import Reading

from .conftest import send_all
from .corpus.clients import encode, flow, html_lines, multipart, quote

pytestmark = pytest.mark.django_db

# The words of our mails and games in English that none of the three languages writes.
ENGLISH = set(
    """
    the your you yours and with for from this that these those are were have has had
    not nothing could would should will can must may been being it its to at by after before
    below above again more other others only each every all any some than then when what
    which who whose how why where here there now yet still just also
    applied refused move moves moved turn turns choices choice commands command reply
    replies answer answered write send sent read lines line position board match matches game
    games player players seat seats resigned resign bot bots deadline days hours minutes
    next previous waiting asked ask wait found posted passed greeting signature
    ended finished winner won lost score scores place rank ranking round rounds final
    take took taken build built building buy bought sell sold pass passed bid bids bidding
    choose chose chosen select keep kept repair repaired accept accepted decline declined
    done use used farm farmed propose proposed develop developed
    forest forests house houses grain bread baker cards card tile tiles silver wood stone
    iron gold guilders shillings cottage tower watchtower sawmill bailiff tudor parish
    church facing north south east damaged plan plans basic extra land lands field pasture
    barn ship pilgrim pilgrims family parcel parcels
    """.split()
)
# Words of the list that are also words of the language, as our sentences use them.
ALSO = {
    "nl": {"plan", "extra", "land", "score", "deadline", "bot", "bots"},
    "de": {"plan", "plans", "extra", "land", "chip", "rank", "gold", "also", "bot", "bots"}
    | {"position"},
    "fr": {"plan", "plans", "extra", "place", "score", "scores", "rang", "final", "use", "bot"}
    | {"bots", "position", "propose", "shillings", "signature"},
}
# Names a mail says that are not words of any language.
NAMES = ("Postal Boards", "De Poorters van Nieuwstad", "New England", "Builders of Blankenburg")

PEOPLE = {
    "nl": [("Dirk", "de Vries"), ("Femke", "Bakker"), ("Joost", "Visser")],
    "de": [("Jürgen", "Müller"), ("Anke", "Schröder"), ("Uwe", "Krämer")],
    "fr": [("Amélie", "Lefèvre"), ("Benoît", "Girard"), ("Chloé", "Moreau")],
}
GREETINGS = {
    "nl": ["Hoi,", "Hallo allemaal,", "Goedemorgen,", "Hee,", ""],
    "de": ["Hallo,", "Moin,", "Guten Morgen zusammen,", "Hi Leute,", ""],
    "fr": ["Bonjour,", "Salut !", "Coucou,", "Bonsoir à tous,", ""],
}
SIGN_OFFS = {
    "nl": ["Groetjes,", "Met vriendelijke groet,", "Gr.", "Groeten,", "Fijne dag!"],
    "de": ["Viele Grüße", "LG", "Gruß,", "Beste Grüße aus Köln", "Schönen Tag noch!"],
    "fr": ["Bonne journée,", "Cordialement,", "Bises,", "A+", "Merci et à bientôt !"],
}
COURTESY = {  # (before the command, after it)
    "nl": (
        ["Graag:", "Graag", "Oké,", "Nou,"],
        ["graag", "alsjeblieft", "aub", "a.u.b.", "alstublieft"],
    ),
    "de": (["Bitte:", "Bitte", "Ok,", "Also,"], ["bitte", "bitte schön", "danke", "Danke!"]),
    "fr": (
        ["Alors", "Bon,", "Ok,", "Alors,"],
        ["s'il te plaît", "svp", "stp", "merci", "s'il vous plaît"],
    ),
}
# The article a native writes between the verb and the thing ("achète la tuile 8").
ARTICLES = {
    "nl": {"bos": "het", "huis": "een", "kaart": "de", "tegel": "de", "basisplan": "het"},
    "de": {"Wald": "den", "Haus": "ein", "Karte": "die", "Plättchen": "das", "Grundplan": "den"},
    "fr": {
        "forêt": "la", "maison": "une", "carte": "la", "tuile": "la", "pierre": "la",
        "bois": "le", "jeton": "le", "chaumière": "la", "plan": "le", "fer": "le",
    },
}  # fmt: skip
HELP = {"nl": "hulp", "de": "Hilfe", "fr": "aide"}
MONTHS = {
    "nl": "jan feb mrt apr mei jun jul aug sep okt nov dec".split(),
    "de": "Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez.".split(),
    "fr": "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.".split(),
}
DAYS = {
    "nl": "ma di wo do vr za zo".split(),
    "de": "Mo. Di. Mi. Do. Fr. Sa. So.".split(),
    "fr": "lun. mar. mer. jeu. ven. sam. dim.".split(),
}


# --- what a person types --------------------------------------------------------------------


def without_umlauts(text: str) -> str:
    for letter, written in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe")):
        text = text.replace(letter, written)
    return text.replace("Ü", "Ue").replace("ß", "ss")


def without_accents(text: str) -> str:
    plain = unicodedata.normalize("NFD", text)
    return "".join(c for c in plain if not unicodedata.combining(c))


def typed(command: str, lang: str, rng: random.Random) -> str:
    """`command` (the mail's words) as a person of `lang` types it."""
    words = command.split(" ")
    if len(words) > 1 and rng.random() < 0.4:
        noun = words[1]
        article = ARTICLES[lang].get(noun)
        if article:
            words.insert(1, article)
    text = " ".join(words)
    if lang == "de" and rng.random() < 0.3:
        text = without_umlauts(text)
    if lang == "fr" and rng.random() < 0.3:
        text = without_accents(text)
    if rng.random() < 0.6:
        text = text[:1].upper() + text[1:]  # the phone's keyboard, or the habit of a sentence
    before, after = COURTESY[lang]
    roll = rng.random()
    if roll < 0.2:
        text = f"{rng.choice(before)} {text[:1].lower()}{text[1:]}"
    elif roll < 0.5:
        text = f"{text} {rng.choice(after)}"
    if rng.random() < 0.3:
        text += rng.choice([".", "!", " :)"])
    return text


def own_words(lines: list[str], lang: str, first_name: str, rng: random.Random) -> list[str]:
    greeting = rng.choice(GREETINGS[lang])
    sign_off = rng.choice(SIGN_OFFS[lang])
    return ([greeting, ""] if greeting else []) + lines + ["", sign_off, first_name]


# --- how their clients reply -----------------------------------------------------------------


def html_of(message) -> str:
    return next((body for body, kind in message.alternatives if kind == "text/html"), "")


def headers(message, sender: str, subject_prefix: str, mailer: tuple[str, str]) -> list:
    original = email.message_from_bytes(message.message().as_bytes(), policy=default_policy)
    return [
        ("Return-Path", f"<{sender.split('<')[-1].rstrip('>')}>"),
        ("Date", format_datetime(timezone.now())),
        ("From", sender),
        ("To", f"Postal Boards <{message.reply_to[0]}>"),
        ("Subject", f"{subject_prefix} {message.subject}"),
        ("Message-ID", make_msgid(domain="mail.example.net")),
        ("In-Reply-To", original["Message-ID"]),
        ("References", f"{original.get('References', '')} {original['Message-ID']}".strip()),
        ("MIME-Version", "1.0"),
        mailer,
    ]


def when(lang: str) -> tuple[datetime, str, str, str]:
    now = timezone.localtime(timezone.now())
    return now, DAYS[lang][now.weekday()], MONTHS[lang][now.month - 1], now.strftime("%H:%M")


def gmail(message, lang: str, sender: str, own: list[str]) -> bytes:
    now, day, month, time = when(lang)
    said = {
        "nl": f"Op {day} {now.day} {month} {now.year} om {time} schreef Postal Boards <"
        "play@reply.example.org>:",
        "de": f"Am {day}, {now.day}. {month} {now.year} um {time} Uhr schrieb Postal Boards <"
        "play@reply.example.org>:",
        "fr": f"Le {day} {now.day} {month} {now.year} à {time}, Postal Boards <"
        "play@reply.example.org> a écrit :",
    }[lang]
    text = "\n".join(own) + f"\n\n{said}\n\n{quote(message.body)}\n"
    html = (
        f'<div dir="ltr">{html_lines(own)}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">{said.replace("<", "&lt;").replace(">", "&gt;")}<br></div>'
        '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
        f'rgb(204,204,204);padding-left:1ex">{html_of(message)}</blockquote></div>\n'
    )
    parts = [
        leaf('text/plain; charset="UTF-8"', text, "quoted-printable"),
        leaf('text/html; charset="UTF-8"', html, "quoted-printable"),
    ]
    top = headers(message, sender, "Re:", ("X-Gm-Message-State", "AOJu0Yw"))
    return join(top, multipart("alternative", "000000000000a1b2c3d4e5f60625c9", parts))


def thunderbird(message, lang: str, sender: str, own: list[str]) -> bytes:
    """Thunderbird, answering below the quote as many German and Dutch users do."""
    now, *_ = when(lang)
    said = {
        "nl": f"Op {now:%d-%m-%Y} om {now:%H:%M} schreef Postal Boards:",
        "de": f"Am {now:%d.%m.%y} um {now:%H:%M} schrieb Postal Boards:",
        "fr": f"Le {now:%d/%m/%Y} à {now:%H:%M}, Postal Boards a écrit :",
    }[lang]
    text = f"{said}\n{quote(message.body)}\n\n" + "\n".join(own) + "\n"
    body = leaf("text/plain; charset=UTF-8; format=flowed", flow(text), "8bit")
    top = headers(message, sender, "Re:", ("User-Agent", "Mozilla Thunderbird"))
    return join(top + [("Content-Language", {"nl": "nl", "de": "de-DE", "fr": "fr"}[lang])], body)


def apple(message, lang: str, sender: str, own: list[str], iphone: bool) -> bytes:
    now, _, month, time = when(lang)
    said = {
        "nl": f"Op {now.day} {month} {now.year}, om {time} heeft Postal Boards <"
        "play@reply.example.org> het volgende geschreven:",
        "de": f"Am {now:%d.%m.%Y} um {time} schrieb Postal Boards <play@reply.example.org>:",
        "fr": f"Le {now.day} {month} {now.year} à {time}, Postal Boards <"
        "play@reply.example.org> a écrit :",
    }[lang]
    footer = {
        "nl": "Verstuurd vanaf mijn iPhone",
        "de": "Von meinem iPhone gesendet",
        "fr": "Envoyé de mon iPhone",
    }[lang]
    lines = own + (["", footer] if iphone else [])
    text = "\n".join(lines) + f"\n\n> {said}\n> \n{quote(message.body)}\n"
    mailer = ("X-Mailer", "iPhone Mail (22B91)" if iphone else "Apple Mail (2.3826.300.87)")
    body = leaf("text/plain;\r\n\tcharset=utf-8", text, "quoted-printable")
    return join(headers(message, sender, "Re:", mailer), body)


def outlook(message, lang: str, sender: str, own: list[str]) -> bytes:
    """Outlook: the original under a block of headers in the user's language, unquoted."""
    now = timezone.localtime(timezone.now())
    weekday = {
        "nl": "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
        "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag",
        "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche",
    }[lang].split()[now.weekday()]
    month = {
        "nl": "januari februari maart april mei juni juli augustus september oktober november "
        "december",
        "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
        "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre "
        "décembre",
    }[lang].split()[now.month - 1]
    sent = f"{weekday} {now.day}{'.' if lang == 'de' else ''} {month} {now.year} {now:%H:%M}"
    if lang == "de":
        sent = f"{weekday}, {now.day}. {month} {now.year} {now:%H:%M}"
    labels = {
        "nl": ("Van", "Verzonden", "Aan", "Onderwerp", "RE:"),
        "de": ("Von", "Gesendet", "An", "Betreff", "AW:"),
        "fr": ("De\u00a0", "Envoyé\u00a0", "À\u00a0", "Objet\u00a0", "RE\u00a0:"),
    }[lang]
    block = (
        f"{labels[0]}: Postal Boards <play@reply.example.org>\n{labels[1]}: {sent}\n"
        f"{labels[2]}: {sender}\n{labels[3]}: {message.subject}"
    )
    text = "\n".join(own) + "\n\n" + block + "\n\n" + message.body
    html = (
        '<html><head><meta http-equiv=Content-Type content="text/html; charset=windows-1252">'
        '<meta name=Generator content="Microsoft Word 15 (filtered medium)"></head><body>'
        "<div class=WordSection1>"
        + "".join(f"<p class=MsoNormal>{line or '&nbsp;'}<o:p></o:p></p>" for line in own)
        + "<div style='border:none;border-top:solid #E1E1E1 1.0pt'><p class=MsoNormal><b>"
        + block.replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")
        + f"</b></p></div>{html_of(message)}</div></body></html>"
    )
    parts = [
        leaf('text/plain; charset="windows-1252"', text, "quoted-printable", "windows-1252"),
        leaf('text/html; charset="windows-1252"', html, "quoted-printable", "windows-1252"),
    ]
    top = headers(message, sender, labels[4], ("X-Mailer", "Microsoft Outlook 16.0"))
    return join(top, multipart("alternative", "_000_AM9PR08MB6588eurprd08prod_", parts))


def webde(message, lang: str, sender: str, own: list[str]) -> bytes:
    """web.de and GMX (German): the original under "Gesendet: / Von: / An: / Betreff:"."""
    now = timezone.localtime(timezone.now())
    block = (
        f'Gesendet: {now:%d.%m.%Y} um {now:%H:%M} Uhr\nVon: "Postal Boards" '
        f"<play@reply.example.org>\nAn: {sender}\nBetreff: {message.subject}"
    )
    text = "\n".join(own) + f"\n\n\n{block}\n\n" + message.body
    body = leaf("text/plain; charset=UTF-8", text, "quoted-printable")
    return join(headers(message, sender, "Aw:", ("X-UI-Message-Type", "mail")), body)


CLIENTS = {
    "nl": ("gmail", "apple", "iphone", "outlook", "thunderbird"),
    "de": ("thunderbird", "webde", "gmail", "outlook", "iphone"),
    "fr": ("gmail", "iphone", "outlook", "apple", "thunderbird"),
}


def leaf(content_type: str, text: str, cte: str, charset: str = "utf-8") -> bytes:
    head = f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
    return head.encode() + encode(text, charset, cte)


def join(top: list[tuple[str, str]], body: bytes) -> bytes:
    return "".join(f"{name}: {value}\r\n" for name, value in top).encode() + body


def reply(client: str, message, lang: str, sender: str, own: list[str]) -> bytes:
    if client in ("apple", "iphone"):
        return apple(message, lang, sender, own, iphone=client == "iphone")
    return {"gmail": gmail, "thunderbird": thunderbird, "outlook": outlook, "webde": webde}[client](
        message, lang, sender, own
    )


# --- the players --------------------------------------------------------------------------


def people(lang: str) -> list[User]:
    out = []
    for first, last in PEOPLE[lang]:
        address = f"{without_accents(first).lower()}@mail.example.net"
        user = User.objects.create_user(address, address, "pw", first_name=first, last_name=last)
        Preferences.objects.update_or_create(user=user, defaults={"language": lang})
        out.append(user)
    return out


def pipe(monkeypatch, raw: bytes, recipient: str, sender: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("receive_email", "--recipient", recipient, "--sender", sender, stdout=out)


def latest_mail(match, user):
    for message in reversed(mail.outbox):
        if user.email in message.to and re.search(rf"#{match.pk}\b", message.subject):
            return message
    raise AssertionError(f"no mail to {user.email} in match {match.pk}")


def read(message) -> str:
    """The mail as its reader reads it: the subject, the text part, the HTML part's words."""
    reading = Reading()
    reading.feed(html_of(message))
    return " ".join([message.subject, message.body, *reading.words])


def english_in(message, lang: str) -> list[str]:
    text = read(message)
    for name in NAMES:
        text = text.replace(name, " ")
    text = re.sub(r"\S*@\S+|\S+://\S+", " ", text)  # addresses and links
    words = ENGLISH - ALSO[lang]
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in words})


def context(message, word: str) -> list[str]:
    text = " ".join(read(message).split())
    return re.findall(rf".{{0,60}}\b{word}\b.{{0,30}}", text)[:2]


GAMES = {"nieuwstad": 3, "blankenburg": 3, "new-england": 3}
# A match by mail takes a minute or two: each game in one language in every run, the other
# six pairs in the slow run (.ci/run).
EVERY_RUN = {("nieuwstad", "nl"), ("blankenburg", "de"), ("new-england", "fr")}


@pytest.mark.parametrize(
    ("slug", "lang"),
    [
        pytest.param(slug, lang, marks=() if (slug, lang) in EVERY_RUN else pytest.mark.slow)
        for slug in GAMES
        for lang in ("nl", "de", "fr")
    ],
)
def test_native_speakers_play_a_match_to_the_end_by_mail(slug, lang, monkeypatch):
    rng = random.Random(f"{slug}-{lang}")
    players = people(lang)
    match = services.create_match(
        creator=players[0], game_slug=slug, players=GAMES[slug],
        invite_emails=[p.email for p in players[1:]], seed=f"41-{slug}-{lang}",
    )  # fmt: skip
    for user in players[1:]:
        services.join_match(match_id=match.pk, user=user)
    game = match.game
    by_seat = {s.number: s.user for s in match.seats.select_related("user")}
    sender = {u.pk: f"{u.first_name} {u.last_name} <{u.email}>" for u in players}
    asked_help, refused_once, replies = set(), False, 0
    while True:
        send_all()
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = match.to_act[0]
        user = by_seat[seat]
        turn = latest_mail(match, user)
        state = load_state(match)
        move = game.bot_move(state, seat, rng)
        command = language.in_language(game, game.format_move(state, seat, move), lang)
        lines = [typed(command, lang, rng)]
        if user.pk not in asked_help:  # a first mail's question, and a slip of the fingers
            asked_help.add(user.pk)
            lines = [HELP[lang].capitalize()]
        elif not refused_once and len(command.split()) > 1:
            refused_once = True
            lines = [f"{command.split()[0]} xyzzy 99"]
        client = CLIENTS[lang][replies % len(CLIENTS[lang])]
        raw = reply(
            client, turn, lang, sender[user.pk], own_words(lines, lang, user.first_name, rng)
        )
        before = match.head_seq
        pipe(monkeypatch, raw, turn.reply_to[0], user.email)
        replies += 1
        row = InboundMessage.objects.order_by("-pk").first()
        assert row.status == InboundStatus.DONE, (client, row.status, row.outcome)
        match.refresh_from_db()
        if lines[0].endswith("99") or lines[0] == HELP[lang].capitalize():
            assert match.head_seq == before, (client, row.outcome)
            continue
        played = match.moves.filter(seq__gt=before, seat=seat).order_by("seq").first()
        assert played is not None, (client, lines, row.outcome)
        assert played.payload == move, (client, lines, played.payload, move)
        assert replies < 2000
    send_all()
    assert match.status == MatchStatus.FINISHED
    assert refused_once and len(asked_help) == len(players)
    found = {}
    mailed = [m for m in mail.outbox if any(p.email in m.to for p in players)]
    for message in mailed:
        english = english_in(message, lang)
        if english:
            key = f"{message.to[0]}: {message.subject}"
            found[key] = {w: context(message, w) for w in english}
    assert len(mailed) > replies
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in list(found.items())[:30])
