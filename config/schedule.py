"""The beat schedule (imported by config/settings.py). Only one beat may run; every task is
idempotent, so a sweep that runs twice or late does no harm."""

CELERY_BEAT_SCHEDULE = {
    "notifications-sweep-outbox": {"task": "notifications.sweep_outbox", "schedule": 60.0},
    "replies-sweep-inbound": {"task": "replies.sweep_inbound", "schedule": 60.0},
    "games-sweep-deadlines": {"task": "games.sweep_deadlines", "schedule": 60.0},
    "tournaments-start-due": {"task": "tournaments.start_due", "schedule": 60.0},
    "notifications-send-reminders": {"task": "notifications.send_reminders", "schedule": 300.0},
    "notifications-send-digests": {"task": "notifications.send_digests", "schedule": 900.0},
    # Hourly; each bot's summary goes once a day (api/summary.py).
    "api-send-bot-summaries": {"task": "api.send_bot_summaries", "schedule": 3600.0},
}
