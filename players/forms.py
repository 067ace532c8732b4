"""Account forms: they read and check what was typed; players.accounts does the writing."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

User = get_user_model()


def normalise_email(value: str) -> str:
    return (value or "").strip().lower()


class SignupForm(forms.Form):
    """Never says whether the address already has an account: that answer goes to the
    address, by mail."""

    email = forms.EmailField(
        label=_("Email"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    display_name = forms.CharField(
        max_length=40,
        label=_("Name shown to other players"),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    password = forms.CharField(
        label=_("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        strip=False,
        help_text=lazy(password_validation.password_validators_help_text_html, str)(),
    )
    password_again = forms.CharField(
        label=_("Password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        strip=False,
    )
    # The browser's own zone (static/js/time_zone.js); empty without JavaScript.
    time_zone = forms.CharField(required=False, max_length=60, widget=forms.HiddenInput)
    # Pages and mails in this language; the view offers the browser's.
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, required=False)

    def clean_time_zone(self) -> str:
        from .preferences import is_valid_time_zone

        zone = self.cleaned_data.get("time_zone") or ""
        return zone if zone and is_valid_time_zone(zone) else ""

    def clean_email(self) -> str:
        return normalise_email(self.cleaned_data["email"])

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if "@" in name:
            raise forms.ValidationError(_("A name, please, not an email address."))
        if not name:
            raise forms.ValidationError(_("Type the name other players will see."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        password = data.get("password")
        if password and password != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        elif password and data.get("email"):
            try:
                password_validation.validate_password(
                    password,
                    User(
                        username=data["email"],
                        email=data["email"],
                        first_name=data.get("display_name", ""),
                    ),
                )
            except forms.ValidationError as error:
                self.add_error("password", error)
        return data


class EmailLoginForm(AuthenticationForm):
    """Django's login form with the email as the username. An account whose address was
    never confirmed cannot sign in with its password (someone else may have set it)."""

    username = forms.EmailField(
        label=_("Email"),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )

    def clean_username(self) -> str:
        return normalise_email(self.cleaned_data["username"])

    def confirm_login_allowed(self, user) -> None:
        from players.accounts import is_verified

        super().confirm_login_allowed(user)
        if not is_verified(user):
            raise forms.ValidationError(
                _(
                    "Confirm your address first: follow the link we mailed you, "
                    "or ask for a new sign-in link below."
                ),
                code="unverified",
            )


class MagicLinkForm(forms.Form):
    email = forms.EmailField(
        label=_("Email"), widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )

    def clean_email(self) -> str:
        return normalise_email(self.cleaned_data["email"])


class SignOutEverywhereForm(forms.Form):
    """Asks for the password, if the account has one: signing out everywhere re-hashes it,
    which ends every other session and voids every sign-in link already sent."""

    password = forms.CharField(
        label=_("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():
            del self.fields["password"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password
