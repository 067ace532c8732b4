from django.contrib import admin

from games.admin import SeatFromOne, WithholdsSecrets

from .models import InboundMessage


@admin.register(InboundMessage)
class InboundMessageAdmin(WithholdsSecrets, SeatFromOne, admin.ModelAdmin):
    secret_fields = ("raw", "outcome")  # the player's commands, the turn mail they quote
    list_display = ["received_at", "sender", "subject", "match", "seat_no", "status"]
    list_filter = ["status"]
    search_fields = ["message_id", "sender", "subject"]
    exclude = ["seat"]  # shown as seat_no, from 1
    readonly_fields = [
        f.name if f.name != "seat" else "seat_no" for f in InboundMessage._meta.fields
    ]
