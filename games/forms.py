"""Forms of the web pages. They read and check what was typed; services do the writing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from games import vacation_bank
from games.engine import Game, available_games
from games.language import localize
from games.models import TimeoutPolicy
from players.forms import normalise_email

# --- creating a match ---------------------------------------------------------------------


def game_choices() -> list[tuple[str, str]]:
    return [(g.slug, g.title) for g in available_games()]


class GameChoiceForm(forms.Form):
    """The first step of creating a match: which game and how many players; the options
    offered depend on both."""

    game = forms.ChoiceField(choices=game_choices, label=_("Game"))
    players = forms.IntegerField(min_value=1, max_value=12, label=_("Players"))

    def chosen(self) -> tuple[Game, int] | None:
        if not self.is_valid():
            return None
        game = next(g for g in available_games() if g.slug == self.cleaned_data["game"])
        players = self.cleaned_data["players"]
        if not game.min_players <= players <= game.max_players:
            players = game.min_players
        return game, players


def option_field_name(key: str) -> str:
    return f"option_{key}"


class MatchCreateForm(forms.Form):
    """Everything about a new match once the game and player count are known."""

    game = forms.CharField(widget=forms.HiddenInput)
    players = forms.IntegerField(widget=forms.HiddenInput)
    days_per_move = forms.IntegerField(
        min_value=1,
        max_value=30,
        initial=3,
        label=_("Days per move"),
        help_text=_("How long each player has for a move."),
    )
    timeout_policy = forms.ChoiceField(
        choices=TimeoutPolicy.choices,
        initial=TimeoutPolicy.DEFAULT_MOVE,
        label=_("When a deadline passes"),
    )
    vacation_cap = forms.IntegerField(
        required=False,  # blank: the site's default
        min_value=0,
        max_value=60,
        initial=vacation_bank.default_cap,
        label=_("Vacation cap"),
        help_text=_(
            "The most days of a player's vacation bank the clock may spend on this match "
            "while their turn waits (only for a player seen on the site recently)."
        ),
    )
    bots = forms.IntegerField(min_value=0, initial=0, label=_("Bots for empty seats"))
    invite_emails = forms.CharField(
        required=False,
        label=_("Invite by email"),
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": _("one address per line")}),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated"),
        help_text=_("The result changes the players' ratings (never with bots in the match)."),
    )
    watchable = forms.BooleanField(
        required=False,
        initial=False,
        label=_("Anyone may watch"),
        help_text=_("Others can follow the match while it is played, seeing only the public view."),
    )

    takebacks = forms.BooleanField(
        required=False,
        initial=False,
        label=_("Takebacks"),
        help_text=_(
            "A player may take back their last move until anyone else acts, a card is "
            "drawn or anything hidden is revealed."
        ),
    )

    def __init__(self, *args, game: Game, players: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.game_obj = game
        self.fields["game"].initial = game.slug
        self.fields["players"].initial = players
        self.fields["bots"].max_value = players - 1
        self.fields["bots"].widget.attrs["max"] = players - 1
        self.option_fields = []
        for option in game.options:
            if not option.applies_to(players):
                continue
            name = option_field_name(option.key)
            if set(option.choices) == {False, True}:
                field = forms.BooleanField(
                    required=False,
                    initial=option.default,
                    label=localize(option.label),
                    help_text=localize(option.help),
                )
            else:
                field = forms.TypedChoiceField(
                    choices=[(str(c), localize(option.choice_label(c))) for c in option.choices],
                    coerce=_coercer(option.choices),
                    initial=str(option.default),
                    label=localize(option.label),
                    help_text=localize(option.help),
                )
            self.fields[name] = field
            self.option_fields.append(name)

    def clean_invite_emails(self) -> list[str]:
        text = self.cleaned_data.get("invite_emails", "")
        emails = [normalise_email(e) for e in text.replace(",", "\n").split() if e.strip()]
        for email in emails:
            try:
                validate_email(email)
            except forms.ValidationError:
                raise forms.ValidationError(
                    _("%(email)r is not an email address.") % {"email": email}
                ) from None
        if len(set(emails)) != len(emails):
            raise forms.ValidationError(_("An address is listed twice."))
        return emails

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        players = data.get("players") or 0
        taken = 1 + (data.get("bots") or 0) + len(data.get("invite_emails") or [])
        if "bots" in data and "invite_emails" in data and taken > players:
            raise forms.ValidationError(
                _(
                    "You, %(bots)s bots and %(invited)s invited players make %(taken)s, "
                    "but the match has %(seats)s seats."
                )
                % {
                    "bots": data["bots"],
                    "invited": len(data["invite_emails"]),
                    "taken": taken,
                    "seats": players,
                }
            )
        return data

    def options(self) -> dict[str, Any]:
        return {
            name.removeprefix("option_"): self.cleaned_data[name] for name in self.option_fields
        }


def _coercer(choices: tuple[Any, ...]):
    by_text = {str(c): c for c in choices}
    return lambda text: by_text[text]


class PlayNowForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices, label=_("Game"))
    players = forms.IntegerField(min_value=1, max_value=12, label=_("Players"))


# --- playing ------------------------------------------------------------------------------


class MoveForm(forms.Form):
    """A move as the page sends it: the command (a pressed button's value or typed text), the
    position the player saw, and the form's one-time token."""

    command = forms.CharField(max_length=500, error_messages={"required": _("Type a command.")})
    seq = forms.IntegerField(min_value=0)
    token = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,64}$")


class StandingOrdersForm(forms.Form):
    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["orders"] = forms.MultipleChoiceField(
            required=False, choices=[(o.key, o.label) for o in game.standing_orders]
        )


class OperatorMoveForm(forms.Form):
    seat = forms.TypedChoiceField(coerce=int, label=_("Seat"))
    command = forms.CharField(
        max_length=500, label=_("Command"), help_text=_("As the player would type it.")
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the log with the move."),
    )

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(s.number, str(s)) for s in seats]


class OpenHiddenStateForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept with your name, the match and the time (games.hidden_state)."),
    )
