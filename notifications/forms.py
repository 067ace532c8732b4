from __future__ import annotations

from functools import cache

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from games.engine.numbers import read_number
from players.models import Preferences
from players.preferences import is_valid_time_zone, time_zone_form_choices

from .transports import check_webhook_url


@cache
def _time_zone_options() -> str:
    options = []
    for value, label in time_zone_form_choices():
        if isinstance(label, str):
            options.append(f'<option value="{escape(value)}">{escape(label)}</option>')
            continue
        places = "".join(
            f'<option value="{escape(z)}">{escape(name)}</option>' for z, name in label
        )
        options.append(f'<optgroup label="{escape(value)}">{places}</optgroup>')
    return "".join(options)


class TimeZoneSelect(forms.Select):
    """A select of the canonical time zones, grouped by region. Django renders a select
    option by option through a template (about 60 ms for ~600 zones); the options never
    change, so their HTML is built once per process and only the chosen one is marked. A
    zone saved before (an old alias, still valid) that is not in the list is offered first."""

    def render(self, name, value, attrs=None, renderer=None):
        attrs = self.build_attrs(self.attrs, attrs)
        attrs["name"] = name
        options = _time_zone_options()
        if value:
            chosen = f'<option value="{escape(value)}">'
            if chosen in options:
                options = options.replace(chosen, chosen[:-1] + " selected>", 1)
            else:
                options = (
                    f'<option value="{escape(value)}" selected>{escape(value)}</option>' + options
                )
        return mark_safe(f"<select{flatatt(attrs)}>{options}</select>")  # noqa: S308


class PreferencesForm(forms.ModelForm):
    time_zone = forms.CharField(label=_("Time zone"), widget=TimeZoneSelect)  # any valid zone
    reminder_hours = forms.CharField(
        label=_("Reminder hours"),
        required=False,
        help_text=_("Hours before a deadline, comma separated: 24, 2"),
    )
    digest_hour = forms.IntegerField(label=_("Digest hour"), min_value=0, max_value=23)
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("My browser's")), *settings.LANGUAGES],
        required=False,
        help_text=_("Of the pages and of every mail we send you."),
    )
    webhook_url = forms.URLField(
        required=False,
        assume_scheme="https",
        max_length=500,
        label=_("Webhook URL (Discord or Slack)"),
    )

    class Meta:
        model = Preferences
        fields = [
            "mode",
            "time_zone",
            "quiet_start",
            "quiet_end",
            "digest_hour",
            "reminder_hours",
            "webhook_url",
            "push_turns",
            "skip_confirm",
            "confirm_each_move",
            "language",
        ]
        widgets = {
            "mode": forms.RadioSelect,
            "quiet_start": forms.TimeInput(attrs={"type": "time"}),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}),
        }
        labels = {
            "mode": _("Turn notices"),
            "quiet_start": _("Quiet start"),
            "quiet_end": _("Quiet end"),
            "webhook_url": _("Webhook URL (Discord or Slack)"),
            "push_turns": _("Push my turns and reminders to the browsers I turned push on in"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance and not self.is_bound:
            self.initial["reminder_hours"] = ", ".join(
                str(h) for h in self.instance.reminder_hours or []
            )

    def clean_time_zone(self):
        zone = self.cleaned_data["time_zone"]
        if not is_valid_time_zone(zone):
            raise forms.ValidationError(_("Unknown time zone."))
        return zone

    def clean_reminder_hours(self):
        text = self.cleaned_data.get("reminder_hours") or ""
        hours = []
        for part in text.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            hour = read_number(part, low=1, high=168)
            if hour is None:
                raise forms.ValidationError(_("Give whole hours from 1 to 168, like: 24, 2"))
            hours.append(hour)
        return sorted(set(hours), reverse=True)

    def clean_webhook_url(self):
        url = self.cleaned_data.get("webhook_url") or ""
        if url:
            problem = check_webhook_url(url)
            if problem:
                raise forms.ValidationError(problem)
        return url

    def clean(self):
        data = super().clean()
        if bool(data.get("quiet_start")) != bool(data.get("quiet_end")):
            raise forms.ValidationError(_("Give both ends of your quiet hours, or neither."))
        return data


class VacationForm(forms.Form):
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
