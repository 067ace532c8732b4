"""What replies in keep: every email received, recorded once before anything is done with it."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class InboundStatus(models.TextChoices):
    RECEIVED = "received", _("Received, not yet handled")
    DONE = "done", _("Handled")
    DROPPED = "dropped", _("Dropped (machine mail)")
    REJECTED = "rejected", _("Rejected")


class InboundMessage(models.Model):
    """An email received, recorded once by its Message-ID before anything is done with it."""

    message_id = models.CharField(max_length=500, unique=True)
    received_at = models.DateTimeField(auto_now_add=True)
    recipient = models.CharField(max_length=500, blank=True)
    sender = models.CharField(max_length=500, blank=True)
    subject = models.CharField(max_length=500, blank=True)
    raw = models.TextField()
    status = models.CharField(
        max_length=10, choices=InboundStatus.choices, default=InboundStatus.RECEIVED
    )
    outcome = models.TextField(blank=True)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        db_table = "notifications_inboundmessage"  # the table it had before replies split off
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender} ({self.status})"
