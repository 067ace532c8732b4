import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

# redis:// and rediss:// brokers publish through one kept client (config/broker.py); other
# URLs (memory://, the embedded default) keep their own transports.
TRANSPORT_ALIASES.update(redis="config.broker:Transport", rediss="config.broker:Transport")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pbm")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
