"""Reading a reply: from the bytes an MTA or an ESP hands over to the player's own lines.

Small steps, each one never raising on any input:

- `decode`: bytes to headers and text (any charset, any MIME tree, broken headers);
- `flowed`: RFC 3676 format=flowed paragraphs joined again;
- `html`: HTML to text, quotes marked with "> " like a plain-text client would;
- `quotes`: the player's own text, above, below or between the quoted lines;
- `machine`: auto-replies, bounces and list mail;
- `trust`: what our own MX recorded in Authentication-Results.
"""
