"""The API's request and response shapes; django-ninja turns them into the OpenAPI schema."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from ninja import Field, Schema


class ErrorDetail(Schema):
    code: str = Field(description="A stable word for programs: not_found, not_your_turn, ...")
    message: str = Field(description="A sentence for the person behind the program.")


class ErrorOut(Schema):
    error: ErrorDetail


class MeOut(Schema):
    id: int
    name: str
    bot: bool
    scope: str | None = Field(description="The token's scope; null for a browser session.")


class OptionOut(Schema):
    key: str
    label: str
    default: Any
    choices: list[Any]
    player_counts: list[int]


class GameOut(Schema):
    slug: str
    title: str
    min_players: int
    max_players: int
    version: int
    options: list[OptionOut]


class SeatOut(Schema):
    seat: int = Field(description="Seat number, counted from 1 as players read it.")
    name: str
    bot: bool


class MatchSummary(Schema):
    id: int
    game: str
    title: str
    status: str
    seq: int
    your_seat: int | None = Field(description="Counted from 1; null when you have no seat.")
    your_turn: bool
    prompt: str
    deadline_at: datetime | None
    players: list[SeatOut]
    rated: bool
    watchable: bool


class MatchPage(Schema):
    items: list[MatchSummary]
    page: int
    pages: int


class HistoryEntry(Schema):
    seq: int
    seat: int | None
    text: str
    at: datetime | None


class LegalMove(Schema):
    number: int | None = Field(description="Its number in the menu, when the menu is short.")
    command: str = Field(description="The text command that plays it.")
    move: dict[str, Any] = Field(description="The move as JSON, accepted as `move` too.")


class MatchView(Schema):
    match: MatchSummary
    seed_commitment: str
    seed: str | None = Field(description="Revealed once the match is over.")
    result: dict[str, Any] | None
    view: dict[str, Any] | None = Field(description="What your seat (or a watcher) may see.")
    board_text: str
    history: list[HistoryEntry]


class MoveIn(Schema):
    command: str | None = Field(None, max_length=2000, description="A text command.")
    move: dict[str, Any] | None = Field(None, description="Or a move from the legal list.")
    seq: int | None = Field(
        None, ge=0, description="The position you saw; refused if the match moved on."
    )
    idempotency_key: str | None = Field(
        None, max_length=200, description="Send the same key again safely after a time-out."
    )


class MoveOut(Schema):
    message: str = Field(description="What happened, in the words the web page and email use.")
    duplicate: bool = Field(description="True when this key was already played.")
    seq: int
    status: str
    your_turn: bool


class ChatIn(Schema):
    text: str = Field(min_length=1, max_length=2000)


class ChatEntry(Schema):
    author: str
    seat: int | None
    text: str
    at: datetime


class CreateIn(Schema):
    game: str = Field(description="A game's slug, as GET /games lists them.")
    players: int = Field(ge=1, le=12, description="Seats, yours included.")
    bots: int = Field(0, ge=0, le=11, description="Seats the site's bots play.")
    options: dict[str, Any] = Field(
        default_factory=dict, description="The game's options, as GET /games lists them."
    )
    invite_emails: list[str] = Field(
        default_factory=list,
        max_length=11,
        description="Addresses a seat is kept for; each gets an invitation by mail.",
    )
    days_per_move: int = Field(3, ge=1, le=30, description="Days each decision may take.")
    rated: bool = Field(True, description="Rated (never with a bot account in it).")
    watchable: bool = Field(False, description="Anyone may watch it as a spectator.")
    takebacks: bool = Field(False, description="Takebacks allowed (docs/takebacks.md).")


class ChallengeIn(Schema):
    player: str = Field(
        max_length=200, description="Their public name, or '#' and their account's number."
    )
    game: str = Field(max_length=40)
    players: int = Field(2, ge=2, le=12, description="Seats beyond two are the site's bots.")
    options: dict[str, Any] = Field(default_factory=dict)
    days_per_move: int = Field(3, ge=1, le=30)
    rated: bool = False


class PlayerRef(Schema):
    id: int
    name: str


class ChallengeOut(Schema):
    challenge: int
    challenger: PlayerRef
    challenged: PlayerRef
    game: str
    players: int
    options: dict[str, Any]
    days_per_move: int
    rated: bool
    status: str = Field(description="open, accepted, declined or cancelled")
    reason: str
    match: int | None = Field(description="The match, once accepted.")


class ChallengesOut(Schema):
    received: list[ChallengeOut]
    made: list[ChallengeOut]


class DeclineIn(Schema):
    reason: str = Field("", max_length=200)


class OpenMatchesOut(Schema):
    matches: list[MatchSummary]
    next: int | None = Field(description="Pass as `before` for the next page; null: no more.")


class TurnsOut(Schema):
    matches: list[MatchSummary]
    waited: float = Field(description="Seconds the server waited for a turn.")


class ArchiveEntry(Schema):
    id: int
    game: str
    title: str
    finished_at: datetime | None
    rated: bool
    placings: list[tuple[int, str]]


class ArchivePage(Schema):
    items: list[ArchiveEntry]
    next: str | None = Field(
        description="Send as `cursor` for the page after this one; null on the last page."
    )
    page: int | None = Field(description="The page's number; null when asked by `cursor`.")
    pages: int | None = Field(description="How many pages; null when asked by `cursor`.")


class ArchiveFilter(Schema):
    game: str = ""
    player: str = Field("", max_length=60)
    finished_from: date | None = None
    finished_to: date | None = None
    cursor: str = Field(
        "",
        max_length=40,
        description="The `next` of the page before: the page after it, as fast at any depth.",
    )
    page: int = Field(
        1,
        ge=1,
        le=100000,
        description="A page by number (counted, and slower the deeper it is); `cursor` wins.",
    )


class RatingEntry(Schema):
    place: int
    player: str
    profile: int | None = Field(description="The player's id for their profile; null if hidden.")
    rating: float
    mu: float
    sigma: float
    matches: int


class RatingPage(Schema):
    game: str
    items: list[RatingEntry]
    page: int
    pages: int


class SummaryIn(Schema):
    daily: bool = Field(description="Mail the bot's owner one summary a day (its own address).")


class SummaryOut(Schema):
    daily: bool
