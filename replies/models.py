"""What replies in keep: every email received, recorded once before anything is done with it."""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class InboundStatus(models.TextChoices):
    RECEIVED = "received", _("Received, not yet handled")
    DONE = "done", _("Handled")
    DROPPED = "dropped", _("Dropped (machine mail)")
    REJECTED = "rejected", _("Rejected")


class InboundMessage(models.Model):
    """An email received, recorded once by its Message-ID before anything is done with it."""

    message_id = models.CharField(_("message id"), max_length=500, unique=True)
    received_at = models.DateTimeField(_("received at"), auto_now_add=True)
    recipient = models.CharField(_("recipient"), max_length=500, blank=True)
    sender = models.CharField(_("sender"), max_length=500, blank=True)
    subject = models.CharField(_("subject"), max_length=500, blank=True)
    raw = models.TextField(_("raw"))
    status = models.CharField(
        _("status"), max_length=10, choices=InboundStatus.choices, default=InboundStatus.RECEIVED
    )
    outcome = models.TextField(_("outcome"), blank=True)
    match = models.ForeignKey(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("match"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)

    class Meta:
        verbose_name = _("inbound message")
        verbose_name_plural = _("inbound messages")
        db_table = "notifications_inboundmessage"  # the table it had before replies split off
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return gettext("%(message)s from %(sender)s (%(status)s)") % {
            "message": self.message_id,
            "sender": self.sender,
            "status": self.get_status_display(),
        }
