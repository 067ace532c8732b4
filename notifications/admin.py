from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import ReadOnlyAdmin, SeatFromOne, WithholdsSecrets
from games.models import ChatMessage
from players.models import Preferences, Vacation

from .models import Channel, Notification, masked


@admin.register(Notification)
class NotificationAdmin(WithholdsSecrets, SeatFromOne, admin.ModelAdmin):
    secret_fields = ("context",)  # an answer's report says what the seat bid, drew, holds
    list_display = [
        "created_at",
        "kind",
        "channel",
        "shown_address",
        "match",
        "seat_no",
        "seq",
        "status",
        "attempts",
        "sent_at",
        "last_error",
    ]
    list_filter = ["status", "kind", "channel"]
    search_fields = ["address", "dedupe_key", "provider_message_id"]
    exclude = ["seat", "address"]  # shown as seat_no, from 1; shown_address
    readonly_fields = [
        {"seat": "seat_no", "address": "shown_address"}.get(f.name, f.name)
        for f in Notification._meta.fields
    ]

    @admin.display(description=_("address"), ordering="address")
    def shown_address(self, row: Notification) -> str:
        """A mail address whole; a channel's or a push service's masked: its token lets
        anyone post there (notifications.hooks.masked)."""
        return row.address if row.channel == Channel.EMAIL else masked(row.address)


@admin.register(Preferences)
class PreferencesAdmin(ReadOnlyAdmin):
    """A player whose email is failing has their deadlines stopped; the reason and since
    when are here, and the action starts their clock again (notifications.reachability)."""

    list_display = [
        "user",
        "mode",
        "time_zone",
        "email_failing",
        "email_failure_permanent",
        "email_failed_at",
        "email_failure",
        "webhook_failing",
        "webhook_failed_at",
    ]
    list_filter = ["mode", "email_failing", "email_failure_permanent", "webhook_failing"]
    search_fields = ["user__email", "user__username", "email_failure"]
    actions = ["address_works"]

    @admin.action(description=_("The address works again: restart their deadlines, resend"))
    def address_works(self, request, queryset) -> None:
        from .reachability import mark_webhook_working, mark_working

        users = [prefs.user for prefs in queryset.select_related("user")]
        count = sum(mark_working(user=user) for user in users)
        count += sum(mark_webhook_working(user=user) for user in users)
        self.message_user(
            request,
            ngettext(
                "%(count)s address marked working.", "%(count)s addresses marked working.", count
            )
            % {"count": count},
        )


@admin.register(Vacation)
class VacationAdmin(ReadOnlyAdmin):
    pass


@admin.register(ChatMessage)
class ChatMessageAdmin(SeatFromOne, ReadOnlyAdmin):
    list_display = ["created_at", "match", "seat_no", "text", "source"]
