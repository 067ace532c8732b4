"""format=flowed (RFC 3676): a line ending in a space continues on the next line."""

from __future__ import annotations

SIGNATURE = "-- "


def unflow(text: str, *, delsp: bool = False) -> str:
    """Join soft-wrapped lines into the lines the writer typed, keeping quote depth."""
    out: list[str] = []
    paragraph: str | None = None
    depth_of_paragraph = 0

    def flush() -> None:
        nonlocal paragraph
        if paragraph is not None:
            prefix = ">" * depth_of_paragraph + (" " if depth_of_paragraph else "")
            out.append(prefix + paragraph)
        paragraph = None

    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):  # space-stuffing, or the space after the quote marks
            content = content[1:]
        soft = content.endswith(" ") and content != SIGNATURE
        if soft and delsp:
            content = content[:-1]
        if paragraph is not None and depth == depth_of_paragraph:
            paragraph += content
        else:
            flush()
            paragraph, depth_of_paragraph = content, depth
        if not soft:
            flush()
    flush()
    return "\n".join(out)
