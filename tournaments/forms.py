from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import available_games
from games.models import TimeoutPolicy
from games.services import ServiceError

from .models import DEFAULT_VACATION_CAP, Format


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    game_slug = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(choices=Format.choices, label=_("Format"))
    table_size = forms.IntegerField(min_value=2, max_value=6, initial=2, label=_("Players a table"))
    rounds = forms.IntegerField(
        min_value=0,
        max_value=20,
        initial=3,
        label=_("Rounds"),
        help_text=_("Swiss and tables; a round robin has as many as it needs."),
    )
    signup_until = forms.DateTimeField(
        required=False,
        label=_("Sign-up until"),
        help_text=_("YYYY-MM-DD HH:MM, in UTC"),
    )
    max_players = forms.IntegerField(
        required=False, min_value=2, max_value=64, label=_("Or until this many players")
    )
    days_per_move = forms.IntegerField(
        min_value=1, max_value=30, initial=3, label=_("Days per move")
    )
    timeout_policy = forms.ChoiceField(
        choices=TimeoutPolicy.choices, label=_("When a deadline passes")
    )
    vacation_cap = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=60,
        initial=DEFAULT_VACATION_CAP,
        label=_("Vacation days the clock may spend per player and match"),
        help_text=_(
            "A round waits for its slowest match: a week covers a holiday without holding "
            "everyone for longer. Empty: as many as the player's bank holds."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_slug"].choices = [(g.slug, g.title) for g in available_games()]

    def clean(self):
        """Refuse, with a sentence, any settings the server could not play to the end."""
        from .services import check_settings

        data = super().clean()
        if self.errors:
            return data
        try:
            check_settings(
                game_slug=data["game_slug"],
                format=data["format"],
                table_size=data["table_size"],
                rounds=data["rounds"],
                signup_until=data.get("signup_until"),
                max_players=data.get("max_players"),
            )
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        return data


class DescriptionForm(forms.Form):
    description = forms.CharField(
        required=False, max_length=5000, widget=forms.Textarea, label=_("Description")
    )


class ExtendSignupForm(forms.Form):
    signup_until = forms.DateTimeField(
        label=_("Sign-up until"), help_text=_("YYYY-MM-DD HH:MM, in UTC")
    )
    reason = forms.CharField(required=False, max_length=500, label=_("Why"))


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    game_slug = forms.ChoiceField(label=_("Game"))
    table_size = forms.IntegerField(min_value=2, max_value=6, initial=2, label=_("Players a table"))
    division_size = forms.IntegerField(
        min_value=3, max_value=20, initial=6, label=_("Players a division")
    )
    promoted = forms.IntegerField(
        min_value=1, max_value=10, initial=1, label=_("Promoted (and relegated) a division")
    )
    days_per_move = forms.IntegerField(
        min_value=1, max_value=30, initial=3, label=_("Days per move")
    )
    timeout_policy = forms.ChoiceField(
        choices=TimeoutPolicy.choices, label=_("When a deadline passes")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_slug"].choices = [(g.slug, g.title) for g in available_games()]

    def clean(self):
        """Refuse, with a sentence, any settings the server could not play."""
        from .leagues import check_league_settings

        data = super().clean()
        if self.errors:
            return data
        try:
            check_league_settings(
                game_slug=data["game_slug"],
                table_size=data["table_size"],
                division_size=data["division_size"],
                promoted=data["promoted"],
            )
        except ServiceError as error:
            raise forms.ValidationError(error.message) from None
        return data
