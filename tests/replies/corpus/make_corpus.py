"""Write the reply corpus: tests/replies/corpus/messages/*.eml and expectations.json.

    uv run python -m tests.replies.corpus.make_corpus

Each message is built the way its client builds a reply to our turn email (clients.py);
each expectation says what must happen to it, written from what the player meant, not from
what the parser does. Placeholders: SENDER (the player's address) and REPLY_ADDRESS (the
signed reply address of the turn email), replaced by the test.
"""

from __future__ import annotations

import json
from pathlib import Path

from .clients import (
    APPLE_ATTRIBUTION,
    APPLE_FORWARD,
    DATE,
    GMAIL_ATTRIBUTION,
    GMAIL_FORWARD,
    IPHONE_FOOTER,
    LANGUAGE_TAGS,
    ORIGINAL_HTML,
    ORIGINAL_TEXT,
    OUR_ADDRESS,
    OUR_NAME,
    OUTLOOK_HEADERS,
    OUTLOOK_ORIGINAL,
    PLAYER,
    SAMSUNG,
    SUBJECT,
    THUNDERBIRD_ATTRIBUTION,
    WINDOWS_CHARSET,
    attribution,
    flow,
    gmail_wrap,
    html_lines,
    leaf,
    message,
    multipart,
    quote,
    reply_headers,
)

HERE = Path(__file__).parent
CASES: list[tuple[str, bytes, dict]] = []


def case(name: str, raw: bytes, **expected) -> None:
    CASES.append((name, raw, expected))


def applied(*menu: int, passed_over: bool = False, **more) -> dict:
    return {
        "status": "done",
        "moves": list(menu),
        "subject": "Applied",
        "passed_over": passed_over,
        **more,
    }


_counter = iter(range(1, 10_000))


# --- Gmail (web and Android app): multipart/alternative, gmail_quote, top-posted -----------


def gmail(
    lang: str,
    reply: list[str],
    *,
    cte: str = "quoted-printable",
    html_only: bool = False,
    signature: list[str] | None = None,
    forward: bool = False,
) -> bytes:
    attr = attribution(GMAIL_ATTRIBUTION[lang])
    text = "\n".join(reply)
    html_body = f'<div dir="ltr">{html_lines(reply)}</div>'
    if signature:
        text += "\n\n-- \n" + "\n".join(signature)
        html_body += (
            '<br clear="all"><div><br></div><span class="gmail_signature_prefix">-- </span><br>'
            f'<div dir="ltr" class="gmail_signature">{html_lines(signature)}</div>'
        )
    if forward:
        text += (
            f"\n\n{GMAIL_FORWARD[lang]}\nFrom: {OUR_NAME} <{OUR_ADDRESS}>\n"
            f"Date: Mon, Nov 30, 2026 at 3:11\u202fPM\nSubject: {SUBJECT}\n"
            f"To: {PLAYER} <anna@example.com>\n\n\n{ORIGINAL_TEXT}"
        )
        html_body += (
            f'<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">{GMAIL_FORWARD[lang]}'
            f'<br>From: <strong class="gmail_sendername">{OUR_NAME}</strong> <span>&lt;'
            f"{OUR_ADDRESS}&gt;</span><br>Date: Mon, Nov 30, 2026 at 3:11 PM<br>Subject: "
            f"{SUBJECT}<br>To: {PLAYER} &lt;anna@example.com&gt;<br></div><br><br>"
            f"{ORIGINAL_HTML}</div>"
        )
    else:
        text += f"\n\n{gmail_wrap(attr)}\n\n{quote(ORIGINAL_TEXT)}\n"
        html_body += (
            f'<br><div class="gmail_quote gmail_quote_container"><div dir="ltr" '
            f'class="gmail_attr">{attr.replace("<", "&lt;").replace(">", "&gt;")}<br></div>'
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px '
            f'solid rgb(204,204,204);padding-left:1ex">{ORIGINAL_HTML}</blockquote></div>'
        )
    n = next(_counter)
    headers = reply_headers(
        message_id=f"<CAJ8vGx{n:04d}Qm=pZ3kN+wE@mail.gmail.com>",
        subject_prefix="Fwd" if forward else "Re",
    )
    html_part = leaf('text/html; charset="UTF-8"', f"{html_body}\n", "utf-8", cte)
    if html_only:
        return message(headers, html_part)
    plain = leaf('text/plain; charset="UTF-8"', text, "utf-8", cte)
    return message(
        headers, multipart("alternative", f"000000000000{n:04d}9c1e0625c9a1b2", [plain, html_part])
    )


# --- Outlook desktop / OWA / mobile: header block, unquoted original --------------------


def outlook(
    lang: str,
    reply: list[str],
    *,
    kind: str = "desktop",
    html_only: bool = False,
    signature: list[str] | None = None,
    separator: bool = False,
) -> bytes:
    label_from, label_sent, label_to, label_subject, prefix, when = OUTLOOK_HEADERS[lang]
    charset = WINDOWS_CHARSET.get(lang, "windows-1252")
    lines = list(reply) + ([""] + signature if signature else [])
    block = (
        f"{label_from}: {OUR_NAME} <{OUR_ADDRESS}>\n{label_sent}: {when}\n"
        f"{label_to}: {PLAYER} <anna@example.com>\n{label_subject}: {SUBJECT}"
    )
    if separator:
        block = OUTLOOK_ORIGINAL[lang] + "\n" + block
    if kind == "owa":
        block = "________________________________\n" + block
    text = "\n".join(lines) + "\n\n" + block + "\n\n" + ORIGINAL_TEXT
    if kind == "mobile":
        text = (
            "\n".join(lines)
            + "\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>\n"
            + ("________________________________\n" + block + "\n\n" + ORIGINAL_TEXT)
        )
    paragraphs = "".join(f"<p class=MsoNormal>{line or '&nbsp;'}<o:p></o:p></p>" for line in lines)
    html_block = (
        "<br>".join(
            f"<b>{line.split(':', 1)[0]}:</b>{line.split(':', 1)[1]}"
            for line in block.split("\n")
            if ":" in line and not line.startswith("_")
        )
        .replace("<play@", "&lt;play@")
        .replace(".org>", ".org&gt;")
        .replace("<anna@", "&lt;anna@")
        .replace(".com>", ".com&gt;")
    )
    if kind == "owa":
        quoted = (
            '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" '
            f'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif"'
            f' style="font-size:11pt" color="#000000">{html_block}</font><div>&nbsp;</div></div>'
        )
    else:
        quoted = (
            "<div><div style='border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm "
            f"0cm'><p class=MsoNormal><b><span lang=EN-US>{html_block}<o:p></o:p></span></b></p>"
            "</div></div><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
        )
    html = (
        '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:'
        'office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta http-equiv='
        f'"Content-Type" content="text/html; charset={charset}"><meta name=Generator content='
        '"Microsoft Word 15 (filtered medium)"><title>play 10</title><style><!--\n/* Font '
        'Definitions */\n@font-face\n\t{font-family:"Cambria Math";}\np.MsoNormal, '
        "li.MsoNormal, div.MsoNormal\n\t{margin:0cm;\n\tfont-size:11.0pt;\n\tfont-family:"
        '"Calibri",sans-serif;}\n/* play 10 */\n--></style><!--[if gte mso 9]><xml>\n'
        '<o:shapedefaults v:ext="edit" spidmax="1026" />\n</xml><![endif]--></head>'
        f'<body lang={LANGUAGE_TAGS[lang].upper()} link="#0563C1" vlink="#954F72" '
        f"style='word-wrap:break-word'><div class=WordSection1>{paragraphs}"
        f"<p class=MsoNormal><o:p>&nbsp;</o:p></p>{quoted}{ORIGINAL_HTML}</div></body></html>"
    )
    n = next(_counter)
    extra = [
        ("Thread-Topic", SUBJECT),
        ("Thread-Index", f"AQHbQ2x{n:04d}AAAAAAAAAAAAAA=="),
        ("Accept-Language", f"{LANGUAGE_TAGS[lang]}, en-US"),
        ("Content-Language", LANGUAGE_TAGS[lang]),
        ("X-MS-Has-Attach", ""),
        ("X-MS-TNEF-Correlator", ""),
    ]
    if kind == "desktop":
        extra.append(("X-Mailer", "Microsoft Outlook 16.0"))
    headers = reply_headers(
        message_id=f"<AM9PR08MB{n:04d}5A1B2C3D4E5F6A7B8C@AM9PR08MB6588.eurprd08.prod.outlook.com>",
        subject_prefix=prefix.rstrip("\u00a0"),
        extra=extra,
    )
    html_part = leaf(f'text/html; charset="{charset}"', html, charset, "quoted-printable")
    if html_only:
        return message(headers, html_part)
    plain = leaf(f'text/plain; charset="{charset}"', text, charset, "quoted-printable")
    return message(
        headers, multipart("alternative", f"_000_AM9PR08MB{n:04d}eurprd08prod_", [plain, html_part])
    )


# --- Apple Mail (macOS) and iPhone: quoted attribution, "Sent from my iPhone" -------------


def apple(
    lang: str,
    reply: list[str],
    *,
    iphone: bool = False,
    html: bool = False,
    footer: bool = True,
    forward: bool = False,
) -> bytes:
    attr = attribution(APPLE_ATTRIBUTION[lang])
    lines = list(reply)
    if iphone and footer:
        lines += ["", IPHONE_FOOTER[lang]]
    if forward:
        text = "\n".join(lines) + (
            f"\n\n{APPLE_FORWARD[lang]}\n\n{quote(f'From: {OUR_NAME} <{OUR_ADDRESS}>')}\n"
            f"{quote(f'Subject: {SUBJECT}')}\n{quote('Date: 30 November 2026 at 15:11:02 CET')}\n"
            f"{quote(f'To: {PLAYER} <anna@example.com>')}\n>\n{quote(ORIGINAL_TEXT)}\n"
        )
    else:
        text = "\n".join(lines) + f"\n\n> {attr}\n> \n{quote(ORIGINAL_TEXT)}\n"
    n = next(_counter)
    mailer = (
        ("X-Mailer", "iPhone Mail (22B91)")
        if iphone
        else ("X-Mailer", "Apple Mail (2.3826.300.87.4.3)")
    )
    headers = reply_headers(
        message_id=f"<3F2A9C1E-7B0D-4E55-9A6C-{n:012d}@example.com>",
        subject_prefix="Fwd" if forward else "Re",
        extra=[mailer],
    )
    headers = [(k, "1.0 (1.0)" if k == "MIME-Version" and iphone else v) for k, v in headers]
    plain = leaf("text/plain;\r\n\tcharset=utf-8", text, "utf-8", "quoted-printable")
    if not html:
        return message(headers, plain)
    body = (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        '<body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: '
        f'after-white-space;">{html_lines(lines)}<div><br><blockquote type="cite"><div>'
        f'{attr.replace("<", "&lt;").replace(">", "&gt;")}</div><br class="Apple-interchange-'
        f'newline"><div><div>{ORIGINAL_HTML}</div></div></blockquote></div><br></body></html>'
    )
    html_part = leaf("text/html;\r\n\tcharset=utf-8", body, "utf-8", "quoted-printable")
    return message(
        headers,
        multipart("alternative", f"Apple-Mail=_5C0D{n:04d}-8A4B-4C1D-9E2F", [plain, html_part]),
    )


# --- Thunderbird: format=flowed, top, bottom or inline -----------------------------------


def thunderbird(
    lang: str,
    reply: list[str],
    *,
    layout: str = "bottom",
    signature: list[str] | None = None,
    html: bool = False,
    cte: str = "8bit",
) -> bytes:
    attr = attribution(THUNDERBIRD_ATTRIBUTION[lang]).replace(f" <{OUR_ADDRESS}>", "")
    sig = ("\n-- \n" + "\n".join(signature)) if signature else ""
    own = "\n".join(reply)
    if layout == "top":
        text = f"{own}\n{sig}\n\n{attr}\n{quote(ORIGINAL_TEXT)}\n"
    elif layout == "inline":
        head, tail = ORIGINAL_TEXT.split("Deadline:", 1)
        text = f"{attr}\n{quote(head.rstrip())}\n\n{own}\n\n{quote('Deadline:' + tail)}\n{sig}\n"
    else:
        text = f"{attr}\n{quote(ORIGINAL_TEXT)}\n\n{own}\n{sig}\n"
    n = next(_counter)
    extra = [
        ("User-Agent", "Mozilla Thunderbird"),
        ("Content-Language", LANGUAGE_TAGS[lang]),
    ]
    headers = reply_headers(
        message_id=f"<a1b2c3d4-{n:04d}-4e5f-8a9b-0c1d2e3f4a5b@example.com>",
        subject_prefix="Re",
        extra=extra,
    )
    plain = leaf("text/plain; charset=UTF-8; format=flowed", flow(text), "utf-8", cte)
    if not html:
        return message(headers, plain)
    body = (
        '<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv="Content-Type" content="text/'
        'html; charset=UTF-8">\n  </head>\n  <body>\n'
        f'    <div class="moz-cite-prefix">{attr}<br>\n    </div>\n'
        f'    <blockquote type="cite" cite="mid:n5.turn@reply.example.org">{ORIGINAL_HTML}'
        f"</blockquote>\n    <p>{'<br>'.join(reply)}</p>\n"
        + (
            f'    <pre class="moz-signature" cols="72">-- \n{chr(10).join(signature)}</pre>\n'
            if signature
            else ""
        )
        + "  </body>\n</html>\n"
    )
    html_part = leaf("text/html; charset=UTF-8", body, "utf-8", cte)
    return message(
        headers, multipart("alternative", f"------------{n:04d}TbAlt0Pz9Xq", [plain, html_part])
    )


# --- web.de / GMX: "Gesendet: / Von: / An: / Betreff:" ----------------------------------


def webde(reply: list[str], *, html: bool = True) -> bytes:
    block = (
        f'Gesendet: Montag, 30. November 2026 um 15:11\nVon: "{OUR_NAME}" <{OUR_ADDRESS}>\n'
        f"An: anna@example.com\nBetreff: {SUBJECT}"
    )
    n = next(_counter)
    headers = reply_headers(
        message_id=f"<trinity-{n:04d}a1b2-c3d4-e5f6-a7b8-c9d0e1f2a3b4-1764512621@3c-app-webde-bs22>",
        subject_prefix="Aw",
        extra=[
            ("Importance", "normal"),
            ("Sensitivity", "Normal"),
            ("X-Priority", "3"),
            ("X-UI-Message-Type", "mail"),
            ("X-Provags-ID", "V03:K1:pQ2x9Z5mNw"),
        ],
    )
    if not html:
        text = "\n".join(reply) + "\n \n \n\n" + block + "\n\n" + ORIGINAL_TEXT
        return message(
            headers, leaf("text/plain; charset=UTF-8", text, "utf-8", "quoted-printable")
        )
    lines = "".join(f"<div>{line or '&nbsp;'}</div>" for line in reply)
    body = (
        '<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;">'
        f'{lines}<div>&nbsp;</div><div>&nbsp;<div>&nbsp;<div name="quote" style="margin:10px 5px'
        " 5px 10px; padding: 10px 0 10px 10px; border-left:2px solid #C3D9E5; word-wrap: "
        'break-word;"><div style="margin:0 0 10px 0;"><b>Gesendet:</b>&nbsp;Montag, 30. '
        f"November 2026 um 15:11<br/><b>Von:</b>&nbsp;&quot;{OUR_NAME}&quot; &lt;{OUR_ADDRESS}"
        f"&gt;<br/><b>An:</b>&nbsp;anna@example.com<br/><b>Betreff:</b>&nbsp;{SUBJECT}</div>"
        f'<div name="quoted-content">{ORIGINAL_HTML}</div></div></div></div></div></body></html>'
    )
    return message(headers, leaf("text/html; charset=UTF-8", body, "utf-8", "quoted-printable"))


# --- Samsung Email: footer, "-------- Original message --------" ------------------------


def samsung(lang: str, reply: list[str]) -> bytes:
    footer, separator, k_from, k_date, k_to, k_subject = SAMSUNG[lang]
    text = (
        "\n".join(reply) + f"\n\n\n\n{footer}\n\n\n{separator}\n{k_from}: {OUR_NAME} "
        f"<{OUR_ADDRESS}> \n{k_date}: 30/11/2026 15:11 (GMT+01:00) \n{k_to}: anna@example.com "
        f"\n{k_subject}: {SUBJECT} \n\n{ORIGINAL_TEXT}"
    )
    n = next(_counter)
    html = (
        f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>'
        f'<body><div dir="auto">{"<br>".join(reply)}</div><div dir="auto"><br></div><div '
        f'dir="auto"><br></div><div id="composer_signature" dir="auto"><div style="font-size:'
        f'85%;color:#575757" dir="auto">{footer}</div></div><div dir="auto"><br></div><div>'
        f'<br></div><div align="left" dir="auto" style="font-size:100%;color:#000000"><div>'
        f"{separator}</div><div>{k_from}: {OUR_NAME} &lt;{OUR_ADDRESS}&gt; </div><div>{k_date}"
        f": 30/11/2026 15:11 (GMT+01:00) </div><div>{k_to}: anna@example.com </div><div>"
        f"{k_subject}: {SUBJECT} </div><div><br></div></div>{ORIGINAL_HTML}</body></html>"
    )
    headers = reply_headers(message_id=f"<{n:04d}q1w2e3r4t5y6.samsung-email@email.android.com>")
    boundary = f"--_com.samsung.android.email_{n:04d}81234567890"
    return message(
        headers,
        multipart(
            "alternative",
            boundary,
            [
                leaf("text/plain; charset=utf-8", text, "utf-8", "base64"),
                leaf("text/html; charset=utf-8", html, "utf-8", "base64"),
            ],
        ),
    )


# --- K-9 Mail, Yahoo, Roundcube ------------------------------------------------------------


def k9(reply: list[str]) -> bytes:
    attr = f"On November 30, 2026 3:11:12 PM GMT+01:00, {OUR_NAME} <{OUR_ADDRESS}> wrote:"
    text = (
        "\n".join(reply) + "\n-- \nSent from my Android device with K-9 Mail. Please excuse "
        f"my brevity.\n\n{attr}\n{quote(ORIGINAL_TEXT)}\n"
    )
    n = next(_counter)
    headers = reply_headers(
        message_id=f"<{n:04d}E1F2A3B4-C5D6@example.com>",
        extra=[("User-Agent", "K-9 Mail for Android")],
    )
    return message(headers, leaf("text/plain; charset=utf-8", text, "utf-8", "quoted-printable"))


def yahoo(reply: list[str]) -> bytes:
    attr = f"On Monday, November 30, 2026 at 03:11:12 PM GMT+1, {OUR_NAME} <{OUR_ADDRESS}> wrote:"
    text = "\n".join(reply) + f"\n\n    {attr}  \n \n \n{ORIGINAL_TEXT}"
    n = next(_counter)
    html = (
        '<html><head></head><body><div class="ydp5c1b8a2fyahoo-style-wrap" style="font-family:'
        f'Helvetica Neue, Helvetica, Arial, sans-serif;font-size:16px;">{html_lines(reply)}</div>'
        f'<div id="yahoo_quoted_{n:04d}" class="yahoo_quoted"><div style="font-family:\'Helvetica'
        f"', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;\"><div>"
        f"{attr.replace('<', '&lt;').replace('>', '&gt;')}"
        f"</div><div><br></div><div><br></div><div>{ORIGINAL_HTML}</div></div></div></body></html>"
    )
    headers = reply_headers(
        message_id=f"<{n:04d}.987654321.1764512621234@mail.yahoo.com>",
        extra=[("X-Mailer", "WebService/1.1.23187 YMailNorrin")],
    )
    return message(
        headers,
        multipart(
            "alternative",
            f"----=_Part_{n:04d}_1234567.1764512621",
            [
                leaf("text/plain; charset=UTF-8", text, "utf-8", "7bit"),
                leaf("text/html; charset=UTF-8", html, "utf-8", "7bit"),
            ],
        ),
    )


def roundcube(lang: str, reply: list[str], *, layout: str = "top") -> bytes:
    attrs = {
        "de": "Am 30.11.2026 15:11, schrieb {name}:",
        "en": "On 2026-11-30 15:11, {name} wrote:",
        "fr": "Le 2026-11-30 15:11, {name} a écrit :",
        "nl": "Op 2026-11-30 15:11, schreef {name}:",
    }
    attr = attrs[lang].format(name=OUR_NAME)
    own = "\n".join(reply)
    text = (
        f"{own}\n\n{attr}\n{quote(ORIGINAL_TEXT)}\n"
        if layout == "top"
        else f"{attr}\n{quote(ORIGINAL_TEXT)}\n\n{own}\n"
    )
    n = next(_counter)
    headers = reply_headers(
        message_id=f"<{n:04d}c0ffee1234abcd@webmail.example.net>",
        extra=[("User-Agent", "Roundcube Webmail/1.6.9")],
    )
    return message(
        headers,
        leaf(
            "text/plain; charset=US-ASCII; format=flowed"
            if own.isascii()
            else "text/plain; charset=UTF-8; format=flowed",
            flow(text),
            "utf-8",
            "7bit" if own.isascii() else "8bit",
        ),
    )


# --- machine mail, odd and malformed messages --------------------------------------------


def raw_message(headers: list[tuple[str, str]], body: str | bytes) -> bytes:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return message(headers, b"\r\n" + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def dsn(*, reporter: str, sender_line: str, text: str) -> bytes:
    n = next(_counter)
    headers = [
        ("Return-Path", "<>"),
        ("Delivered-To", "REPLY_ADDRESS"),
        ("Date", DATE),
        ("From", sender_line),
        ("To", "REPLY_ADDRESS"),
        ("Subject", "Undelivered Mail Returned to Sender"),
        ("Auto-Submitted", "auto-replied"),
        ("MIME-Version", "1.0"),
        ("Message-ID", f"<20261130142341.{n:04d}@{reporter}>"),
    ]
    status = (
        f"Reporting-MTA: dns; {reporter}\r\nArrival-Date: {DATE}\r\n\r\n"
        "Final-Recipient: rfc822; anna@example.com\r\nAction: failed\r\nStatus: 5.1.1\r\n"
        "Diagnostic-Code: smtp; 550 5.1.1 <anna@example.com>: Recipient address rejected\r\n"
    )
    original = (
        f"From: {OUR_NAME} <{OUR_ADDRESS}>\r\nTo: anna@example.com\r\nSubject: {SUBJECT}\r\n"
        f"Message-ID: <n5.turn@reply.example.org>\r\n\r\n"
    )
    body = multipart(
        "report; report-type=delivery-status",
        f"{n:04d}.1764512621/{reporter}",
        [
            leaf("text/plain; charset=us-ascii", text, "ascii", "7bit"),
            b"Content-Type: message/delivery-status\r\n\r\n" + status.encode(),
            b"Content-Type: text/rfc822-headers\r\n\r\n" + original.encode(),
        ],
    )
    return message(headers, body)


def build() -> None:
    # Gmail, top-posted, in the twelve languages, each with the sign-off its writers use.
    signoffs = {
        "en": ["Cheers,", "Anna"],
        "de": ["Viele Grüße", "Dieter"],
        "fr": ["Cordialement,", "Jean"],
        "nl": ["Groetjes,", "Dieter"],
        "es": ["Saludos"],
        "it": ["Ciao!"],
        "pt": ["Abraços"],
        "sv": ["Hälsningar", "Sven"],
        "da": ["Mvh", "Søren"],
        "no": ["Hilsen Kari"],
        "pl": ["Pozdrawiam", "Paweł"],
        "cs": ["S pozdravem", "Jiří"],
    }
    for index, (lang, signoff) in enumerate(signoffs.items()):
        menu = index % 3 + 1
        cte = "base64" if lang in ("pl", "cs") else "quoted-printable"
        case(
            f"gmail_{lang}_top_signoff",
            gmail(lang, [str(menu), "", *signoff], cte=cte),
            client="Gmail",
            language=lang,
            layout="top-posted, sign-off",
            **applied(menu, passed_over=True),
        )
    case(
        "gmail_en_plain_move",
        gmail("en", ["1"]),
        client="Gmail",
        language="en",
        layout="top-posted",
        **applied(1),
    )
    case(
        "gmail_en_signature",
        gmail(
            "en", ["play-by-number: see below", "2"], signature=["Anna Example", "+44 20 7946 0018"]
        ),
        client="Gmail",
        language="en",
        layout="top-posted, prose first, signature",
        **applied(2, passed_over=True),
    )
    case(
        "gmail_de_html_only",
        gmail("de", ["3", "", "lg Dieter"], html_only=True),
        client="Gmail (HTML only)",
        language="de",
        layout="HTML only",
        **applied(3, passed_over=True),
    )
    case(
        "gmail_en_forward",
        gmail("en", ["2"], forward=True),
        client="Gmail",
        language="en",
        layout="forwarded to the reply address",
        **applied(2),
    )
    case(
        "gmail_de_forward",
        gmail("de", ["1", "Gruß"], forward=True),
        client="Gmail",
        language="de",
        layout="forwarded",
        **applied(1, passed_over=True),
    )
    long_say = (
        "say Ben, I think we should both keep our highest cards for the last trick, "
        "because the variant doubles it and that makes the ending far more exciting."
    )
    case(
        "gmail_en_say_then_move",
        gmail("en", [long_say, "1"]),
        client="Gmail",
        language="en",
        layout="a long chat line, then the move",
        say=long_say[4:],
        **applied(1),
    )
    case(
        "gmail_android_en_status",
        gmail("en", ["status"]),
        client="Gmail Android",
        language="en",
        layout="top-posted",
        status="done",
        moves=[],
        subject="No move was made",
        passed_over=False,
    )

    # Outlook desktop: the original unquoted under its header block, windows-1252 QP.
    outlook_signoffs = {
        "en": [
            "Kind regards",
            "",
            "Anna Example",
            "Head of Operations | Example Ltd",
            "T +44 20 7946 0018",
        ],
        "de": [
            "Mit freundlichen Grüßen",
            "",
            "Dieter Müller",
            "Vertrieb | Müller GmbH",
            "Friedrichstraße 1",
            "10115 Berlin",
            "030 1234567",
        ],
        "fr": ["Cordialement,", "Jean Dupont"],
        "nl": ["Met vriendelijke groet,", "Jan de Vries"],
        "es": ["Un saludo,", "Lucía"],
        "it": ["Cordiali saluti", "Marco Rossi"],
        "pt": ["Com os melhores cumprimentos,", "João"],
        "sv": ["Med vänliga hälsningar", "Sven"],
        "da": ["Med venlig hilsen", "Søren"],
        "no": ["Med vennlig hilsen", "Kari"],
        "pl": ["Z poważaniem", "Paweł Kowalski"],
        "cs": ["S pozdravem", "Jiří Novák"],
    }
    for index, (lang, signoff) in enumerate(outlook_signoffs.items()):
        menu = (index + 1) % 3 + 1
        case(
            f"outlook_{lang}_desktop",
            outlook(lang, [str(menu), "", *signoff]),
            client="Outlook desktop",
            language=lang,
            layout="top-posted, header block",
            **applied(menu, passed_over=True),
        )
    for lang in ("en", "de", "nl", "sv", "pl"):
        case(
            f"outlook_{lang}_original_message",
            outlook(lang, ["2"], separator=True),
            client="Outlook desktop",
            language=lang,
            layout="-----Original Message-----",
            **applied(2),
        )
    for lang in ("en", "de", "fr", "es", "cs"):
        case(
            f"outlook_{lang}_html_only",
            outlook(lang, ["1", "", "Thanks"], html_only=True),
            client="Outlook desktop (HTML only, <title>/<style> hold a command)",
            language=lang,
            layout="HTML only",
            **applied(1, passed_over=True),
        )
    for lang in ("en", "fr", "es"):
        case(
            f"owa_{lang}",
            outlook(lang, ["3"], kind="owa"),
            client="Outlook on the web",
            language=lang,
            layout="underscore rule, header block",
            **applied(3),
        )
    case(
        "owa_it_html_only",
        outlook("it", ["2"], kind="owa", html_only=True),
        client="Outlook on the web",
        language="it",
        layout="HTML only, divRplyFwdMsg",
        **applied(2),
    )
    for lang in ("en", "it"):
        case(
            f"outlook_mobile_{lang}",
            outlook(lang, ["1"], kind="mobile"),
            client="Outlook for Android",
            language=lang,
            layout="Get Outlook footer",
            **applied(1, passed_over=True),
        )

    # Apple Mail (macOS) and iPhone: attribution inside the quote.
    for index, lang in enumerate(LANGUAGE_TAGS):
        menu = index % 3 + 1
        case(
            f"apple_mail_{lang}",
            apple(lang, [str(menu)], html=lang in ("de", "es", "pl")),
            client="Apple Mail",
            language=lang,
            layout="top-posted",
            **applied(menu),
        )
        case(
            f"iphone_{lang}",
            apple(lang, [str((index + 2) % 3 + 1)], iphone=True),
            client="iPhone Mail",
            language=lang,
            layout="top-posted, device footer",
            **applied((index + 2) % 3 + 1, passed_over=True),
        )
    case(
        "apple_mail_en_forward",
        apple("en", ["3"], forward=True),
        client="Apple Mail",
        language="en",
        layout="Begin forwarded message",
        **applied(3),
    )
    case(
        "iphone_fr_forward",
        apple("fr", ["1"], iphone=True, forward=True),
        client="iPhone Mail",
        language="fr",
        layout="Début du message réexpédié",
        **applied(1, passed_over=True),
    )

    # Thunderbird: format=flowed, bottom-posted and inline replies.
    tb = [
        ("de", "bottom", ["2", "", "lg Dieter"], None),
        ("fr", "bottom", ["1", "", "Cordialement,", "Jean"], None),
        ("nl", "bottom", ["3", "", "Met vriendelijke groet,", "Jan"], None),
        ("sv", "bottom", ["1"], ["Sven Svensson"]),
        ("da", "top", ["2"], ["Søren"]),
        ("no", "bottom", ["3", "Hilsen Kari"], None),
        ("pl", "bottom", ["1", "", "Pozdrawiam"], None),
        ("cs", "bottom", ["2"], ["Jiří Novák", "42"]),
        ("es", "bottom", ["3", "", "Un abrazo"], None),
        ("it", "bottom", ["1"], ["Marco", "Tel. 333 1234567"]),
        ("pt", "top", ["2", "", "Obrigado"], None),
        ("en", "inline", ["3"], None),
        ("de", "inline", ["1", "Viele Grüße"], None),
    ]
    for lang, layout, reply, signature in tb:
        passed = any(not line.isdigit() and line for line in reply)
        case(
            f"thunderbird_{lang}_{layout}",
            thunderbird(lang, reply, layout=layout, signature=signature),
            client="Thunderbird",
            language=lang,
            layout=f"{layout}, format=flowed",
            **applied(int(reply[0]), passed_over=passed),
        )
    case(
        "thunderbird_en_flowed_say",
        thunderbird("en", [long_say, "2"], layout="bottom"),
        client="Thunderbird",
        language="en",
        layout="format=flowed soft-wrapped say",
        say=long_say[4:],
        **applied(2),
    )
    case(
        "thunderbird_de_html",
        thunderbird("de", ["3"], html=True, signature=["Dieter"]),
        client="Thunderbird (HTML)",
        language="de",
        layout="bottom-posted, moz-cite-prefix",
        **applied(3),
    )
    case(
        "thunderbird_en_base64",
        thunderbird("en", ["1"], cte="base64"),
        client="Thunderbird",
        language="en",
        layout="bottom-posted, base64",
        **applied(1),
    )

    # web.de, Samsung, K-9, Yahoo, Roundcube.
    case(
        "webde_de_html",
        webde(["2", "", "Grüße", "Dieter"]),
        client="web.de",
        language="de",
        layout="HTML only, Gesendet/Von block",
        **applied(2, passed_over=True),
    )
    case(
        "webde_de_plain",
        webde(["3"], html=False),
        client="web.de",
        language="de",
        layout="plain, Gesendet/Von block",
        **applied(3),
    )
    for index, lang in enumerate(SAMSUNG):
        menu = index % 3 + 1
        case(
            f"samsung_{lang}",
            samsung(lang, [str(menu)]),
            client="Samsung Email",
            language=lang,
            layout="device footer, Original message",
            **applied(menu, passed_over=True),
        )
    case(
        "k9_en",
        k9(["2"]),
        client="K-9 Mail",
        language="en",
        layout="signature above quote",
        **applied(2),
    )
    case(
        "yahoo_en",
        yahoo(["1"]),
        client="Yahoo Mail",
        language="en",
        layout="original unquoted under the attribution",
        **applied(1),
    )
    for lang, layout in (("de", "top"), ("en", "bottom"), ("nl", "bottom"), ("fr", "top")):
        case(
            f"roundcube_{lang}_{layout}",
            roundcube(lang, ["3"], layout=layout),
            client="Roundcube",
            language=lang,
            layout=f"{layout}, format=flowed",
            **applied(3),
        )

    # What a player writes that is not a move.
    case(
        "gmail_en_illegal_move",
        gmail("en", ["play 99", "1"]),
        client="Gmail",
        language="en",
        layout="a card not in hand",
        status="done",
        moves=[],
        subject="Not applied: play 99",
        passed_over=False,
    )
    case(
        "gmail_en_quote_only",
        gmail("en", [""]),
        client="Gmail",
        language="en",
        layout="empty reply",
        status="done",
        moves=[],
        subject="No command found",
    )
    case(
        "apple_mail_de_prose_only",
        apple("de", ["Ich spiele später, bin unterwegs."]),
        client="Apple Mail",
        language="de",
        layout="no command",
        status="done",
        moves=[],
        subject="No command found",
    )
    case(
        "thunderbird_en_help",
        thunderbird("en", ["help"], layout="bottom"),
        client="Thunderbird",
        language="en",
        layout="help",
        status="done",
        moves=[],
        subject="No move was made",
    )

    # Machine mail: dropped, never answered.
    ooo_headers = reply_headers(
        message_id="<oof.1@AM9PR08MB6588.eurprd08.prod.outlook.com>",
        subject=f"Automatic reply: {SUBJECT}",
        extra=[
            ("Auto-Submitted", "auto-generated"),
            ("X-Auto-Response-Suppress", "All"),
            ("Content-Type", "text/plain; charset=us-ascii"),
        ],
    )
    case(
        "outlook_en_out_of_office",
        raw_message(ooo_headers, "I am out of the office until 7 December.\n"),
        client="Exchange",
        language="en",
        layout="out of office",
        status="dropped",
        reason="Auto-Submitted",
        answered=False,
    )
    old_ooo = reply_headers(
        message_id="<abwesend.2@mail.example.de>",
        subject=f"Abwesenheitsnotiz: {SUBJECT}",
        extra=[("Content-Type", "text/plain; charset=utf-8")],
    )
    case(
        "old_server_de_abwesenheit",
        raw_message(old_ooo, "Ich bin bis 7.12. nicht im Büro.\n1\n"),
        client="old mail server",
        language="de",
        layout="unmarked vacation reply",
        status="dropped",
        reason="auto-reply subject",
        answered=False,
    )
    vacation = reply_headers(
        message_id="<CAvacation.3@mail.gmail.com>",
        subject=f"Re: {SUBJECT}",
        extra=[("Auto-Submitted", "auto-replied"), ("Content-Type", "text/plain; charset=UTF-8")],
    )
    case(
        "gmail_vacation",
        raw_message(vacation, "On holiday, back soon.\n"),
        client="Gmail",
        language="en",
        layout="vacation responder",
        status="dropped",
        reason="Auto-Submitted",
        answered=False,
    )
    sieve = reply_headers(
        message_id="<dovecot-sieve-1764512621-4@mail.example.net>",
        subject="Automatic reply: vacation",
        extra=[
            ("Auto-Submitted", "auto-replied (vacation)"),
            ("Precedence", "bulk"),
            ("Content-Type", "text/plain; charset=utf-8"),
        ],
    )
    case(
        "sieve_vacation",
        raw_message(sieve, "Away.\n"),
        client="Dovecot Sieve",
        language="en",
        layout="vacation",
        status="dropped",
        reason="Auto-Submitted",
        answered=False,
    )
    case(
        "postfix_dsn",
        dsn(
            reporter="mail.example.com",
            sender_line="MAILER-DAEMON@mail.example.com (Mail Delivery System)",
            text="This is the mail system at host mail.example.com.\n\n"
            "I'm sorry to have to inform you that your message could not\n"
            "be delivered to one or more recipients.\n",
        ),
        client="Postfix",
        language="en",
        layout="DSN",
        status="dropped",
        answered=False,
        envelope_sender="",
    )
    case(
        "exchange_ndr",
        dsn(
            reporter="AM9PR08MB6588.eurprd08.prod.outlook.com",
            sender_line="postmaster@outlook.com",
            text="Delivery has failed to these recipients or groups:\n",
        ),
        client="Exchange",
        language="en",
        layout="NDR",
        status="dropped",
        answered=False,
        envelope_sender="",
    )
    case(
        "gmail_dsn",
        dsn(
            reporter="mail-sor-f41.google.com",
            sender_line="Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
            text="** Address not found **\n",
        ),
        client="Gmail",
        language="en",
        layout="DSN with a sender",
        status="dropped",
        answered=False,
    )
    mdn_headers = reply_headers(message_id="<mdn.5@example.com>", subject=f"Read: {SUBJECT}")
    mdn = multipart(
        "report; report-type=disposition-notification",
        "mdn-boundary-5",
        [
            leaf(
                "text/plain; charset=UTF-8",
                "This is a Return Receipt for the mail that you sent.",
                "utf-8",
                "7bit",
            ),
            b"Content-Type: message/disposition-notification\r\n\r\n"
            b"Reporting-UA: example.com; Mozilla Thunderbird\r\nFinal-Recipient: rfc822;"
            b"anna@example.com\r\nDisposition: manual-action/MDN-sent-manually; displayed\r\n",
        ],
    )
    case(
        "thunderbird_read_receipt",
        message(mdn_headers, mdn),
        client="Thunderbird",
        language="en",
        layout="read receipt (MDN)",
        status="dropped",
        answered=False,
    )
    listed = reply_headers(
        message_id="<list.6@lists.example.org>",
        extra=[
            ("List-Id", "Board games <games.lists.example.org>"),
            ("Precedence", "list"),
            ("Content-Type", "text/plain; charset=utf-8"),
        ],
    )
    case(
        "mailing_list_copy",
        raw_message(listed, "1\n"),
        client="Mailman",
        language="en",
        layout="list traffic",
        status="dropped",
        answered=False,
    )

    # Odd and unknown charsets, malformed structure.
    def plain(
        n: int,
        content_type: str,
        body: bytes,
        *,
        cte: str = "8bit",
        extra: list[tuple[str, str]] | None = None,
        sender: str = f"{PLAYER} <SENDER>",
    ) -> bytes:
        headers = reply_headers(message_id=f"<odd.{n}@example.net>", extra=extra, sender=sender)
        return message(
            headers,
            f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n".encode()
            + body,
        )

    quoted = f"\r\n\r\nOn Mon, 30 Nov 2026, {OUR_NAME} wrote:\r\n> Your hand: [6] [9] [10]\r\n"
    case(
        "charset_x_unknown_8bit",
        plain(
            1,
            "text/plain; charset=x-unknown-8bit",
            "2\r\n\r\nGrüße".encode("latin-1") + quoted.encode(),
        ),
        client="Alpine",
        language="de",
        layout="unknown charset",
        **applied(2, passed_over=True),
    )
    case(
        "charset_iso_8859_8_i",
        plain(
            2,
            'text/plain; charset="iso-8859-8-i"',
            "3\r\n\r\nשלום".encode("iso-8859-8") + quoted.encode(),
        ),
        client="Outlook Express",
        language="he",
        layout="iso-8859-8-i",
        **applied(3, passed_over=True),
    )
    case(
        "charset_bogus_base64",
        plain(3, 'text/plain; charset="bogus-1"', b"MQoKVmllbGUgR3LDvMOfZQo=\r\n", cte="base64"),
        client="unknown",
        language="de",
        layout="bogus charset, base64",
        **applied(1, passed_over=True),
    )
    case(
        "charset_is_a_codec_name",
        plain(4, "text/plain; charset=base64", b"2\r\n"),
        client="unknown",
        language="en",
        layout="a codec that is not a charset",
        **applied(2),
    )
    crlf_from = "=?utf-8?q?Anna=0D=0AExample?= <SENDER>"
    case(
        "from_encoded_word_with_crlf",
        plain(5, "text/plain; charset=utf-8", b"3\r\n", sender=crlf_from),
        client="unknown",
        language="en",
        layout="CR/LF inside an encoded-word From",
        **applied(3),
    )
    case(
        "from_raw_utf8_and_control",
        plain(
            6,
            "text/plain; charset=utf-8",
            b"1\r\n",
            sender="Ann\x07a \xc3\x9cxample <SENDER>".encode("latin-1").decode("latin-1"),
        ),
        client="unknown",
        language="de",
        layout="raw 8-bit and a control character in From",
        **applied(1),
    )
    no_id = [h for h in reply_headers(message_id="x") if h[0] != "Message-ID"]
    case(
        "no_message_id",
        message(no_id, b"Content-Type: text/plain\r\n\r\n2\r\n"),
        client="script",
        language="en",
        layout="no Message-ID",
        **applied(2),
    )
    unclosed = reply_headers(message_id="<unclosed.8@example.net>")
    case(
        "multipart_never_closed",
        message(
            unclosed,
            (
                b'Content-Type: multipart/alternative; boundary="b1"\r\n\r\n--b1\r\n'
                b"Content-Type: text/plain; charset=utf-8\r\n\r\n3\r\n\r\n> old text\r\n--b1\r\n"
                b"Content-Type: text/html; charset=utf-8\r\n\r\n<div>3</div><blockquote>old"
            ),
        ),
        client="broken",
        language="en",
        layout="missing closing boundary",
        **applied(3),
    )
    raw_subject = [
        ("Subject" if k == "Subject" else k, "Re: Ihr Zug – Grüße" if k == "Subject" else v)
        for k, v in reply_headers(message_id="<raw8bit.9@example.net>")
        if k != "MIME-Version"
    ]
    case(
        "raw_8bit_headers_no_mime_version",
        message(
            raw_subject,
            ("Content-Type: text/plain; charset=utf-8\r\n\r\n1\r\n\r\nGrüße\r\n").encode(),
        ),
        client="script",
        language="de",
        layout="raw UTF-8 in headers, no MIME-Version",
        **applied(1, passed_over=True),
    )
    big_headers = reply_headers(
        message_id="<oversized.10@example.com>",
        extra=[("X-Mailer", "Apple Mail (2.3826.300.87.4.3)")],
    )
    photo = bytes((i * 7919) % 251 for i in range(45_000))
    import base64 as _b64

    big = multipart(
        "mixed",
        "Apple-Mail=_big",
        [
            leaf(
                "text/plain; charset=us-ascii",
                "2\n\nPhoto of my table attached.\n",
                "ascii",
                "7bit",
            ),
            b'Content-Type: image/jpeg; name="IMG_0412.jpeg"\r\nContent-Disposition: attachment; '
            b'filename="IMG_0412.jpeg"\r\nContent-Transfer-Encoding: base64\r\n\r\n'
            + _b64.encodebytes(photo).replace(b"\n", b"\r\n"),
        ],
    )
    case(
        "oversized_photo_attachment",
        message(big_headers, big),
        client="Apple Mail",
        language="en",
        layout="larger than INBOUND_MAX_BYTES",
        settings={"INBOUND_MAX_BYTES": 20_000},
        size_note=True,
        **applied(2, passed_over=True),
    )
    html_trap = reply_headers(message_id="<htmltrap.11@example.com>")
    case(
        "html_only_title_style_script",
        message(
            html_trap,
            leaf(
                "text/html; charset=utf-8",
                "<html><head><title>play 10</title><style>.x{content:'play 10'}</style>"
                "<script>var move = 'play 10';</script></head><body><p>1&nbsp;</p><p>Thanks &amp; "
                "bye</p><blockquote>Your hand: [6] [9] [10]</blockquote></body></html>",
                "utf-8",
                "7bit",
            ),
        ),
        client="handwritten HTML",
        language="en",
        layout="HTML only with title/style/script",
        **applied(1, passed_over=True),
    )
    case(
        "not_a_message_at_all",
        b"\x00\x01\x02 binary garbage \xff\xfe\r\n" * 3,
        client="none",
        language="-",
        layout="random bytes on the pipe",
        exit=65,
    )

    # Who may play: the sender, the token, our MX's authentication results.
    case(
        "wrong_sender",
        gmail("en", ["1"]),
        client="Gmail",
        language="en",
        layout="From another address",
        status="rejected",
        reason="not the seat's player",
        sender="mallory@evil.example",
        answered_to_player=True,
    )
    case(
        "other_player_answers",
        outlook("en", ["1"]),
        client="Outlook desktop",
        language="en",
        layout="the other player replies to this seat's email",
        status="rejected",
        reason="not the seat's player",
        sender="ben@example.net",
        answered_to_player=True,
    )
    case(
        "forged_token",
        gmail("en", ["1"]),
        client="Gmail",
        language="en",
        layout="a token with a wrong signature",
        status="rejected",
        reason="no valid reply token",
        recipient="play+m1-s0-p1-0123456789abcdef@reply.example.org",
        answered_to_player=True,
    )
    ours = "mx.reply.example.org"
    for name, results, expected in (
        (
            "dmarc_fail",
            f"{ours}; dkim=none; spf=softfail smtp.mailfrom=example.com; "
            "dmarc=fail (p=reject) header.from=example.com",
            {"status": "rejected", "reason": "dmarc=fail", "answered_to_player": True},
        ),
        (
            "spf_fail",
            f"{ours}; spf=fail smtp.mailfrom=example.com; dkim=none",
            {"status": "rejected", "reason": "spf=fail", "answered_to_player": True},
        ),
        (
            "pass_with_forged_upstream_fail",
            f"{ours}; spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com; "
            "dmarc=pass",
            applied(1),
        ),
    ):
        extra = [("Authentication-Results", results)]
        if name == "pass_with_forged_upstream_fail":
            extra.append(("Authentication-Results", "evil.example; dmarc=fail; spf=fail"))
        headers = reply_headers(message_id=f"<auth.{name}@mail.gmail.com>", extra=extra)
        headers.insert(0, headers.pop())  # our MX writes its header on top
        if name == "pass_with_forged_upstream_fail":
            headers.insert(0, headers.pop(-1))
            headers.insert(0, headers.pop(1))
        case(
            name,
            message(headers, leaf("text/plain; charset=UTF-8", "1\n", "utf-8", "7bit")),
            client="Gmail via our MX",
            language="en",
            layout="Authentication-Results",
            settings={"INBOUND_AUTHSERV_ID": ours},
            **expected,
        )
    headers = reply_headers(
        message_id="<auth.untrusted@mail.gmail.com>",
        extra=[("Authentication-Results", f"{ours}; dmarc=fail")],
    )
    case(
        "fail_recorded_but_no_authserv_configured",
        message(headers, leaf("text/plain; charset=UTF-8", "2\n", "utf-8", "7bit")),
        client="Gmail",
        language="en",
        layout="INBOUND_AUTHSERV_ID empty: trust none",
        settings={"INBOUND_AUTHSERV_ID": ""},
        **applied(2),
    )


def main() -> None:
    build()
    folder = HERE / "messages"
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.eml"):
        old.unlink()
    expectations = {}
    for name, raw, expected in CASES:
        assert name not in expectations, name
        (folder / f"{name}.eml").write_bytes(raw)
        expectations[name] = expected
    (HERE / "expectations.json").write_text(
        json.dumps(expectations, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    )
    print(f"{len(CASES)} messages written to {folder}")


if __name__ == "__main__":
    main()
