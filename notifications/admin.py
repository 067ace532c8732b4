from django.contrib import admin

from .models import ChatMessage, InboundMessage, Notification, Preferences, Vacation


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "kind",
        "channel",
        "address",
        "match",
        "seat",
        "seq",
        "status",
        "attempts",
        "sent_at",
    ]
    list_filter = ["status", "kind", "channel"]
    search_fields = ["address", "dedupe_key", "provider_message_id"]
    readonly_fields = [f.name for f in Notification._meta.fields]


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ["received_at", "sender", "subject", "match", "seat", "status"]
    list_filter = ["status"]
    search_fields = ["message_id", "sender", "subject"]
    readonly_fields = [f.name for f in InboundMessage._meta.fields]


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ["user", "mode", "time_zone", "email_failing"]
    list_filter = ["mode", "email_failing"]


admin.site.register(Vacation)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "match", "seat", "text", "source"]
