"""Settings. Everything comes from environment variables; the defaults are the embedded
setup (SQLite file, in-process Celery, email kept in a local mailbox). See README.md."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("PBM_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DJANGO_DEBUG", True)
_DEV_KEY = "dev-only-insecure-key-do-not-use-in-production-0123456789abcdef"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _DEV_KEY)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SITE_NAME = env_str("SITE_NAME", "Postal Boards")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [SITE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "ninja",  # the API docs page loads Swagger UI from our static files, not a CDN
    "anymail",
    "axes",
    "players",
    "games",
    "notifications",
    "replies",
    "tournaments",
    "community",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.database_outage.DatabaseOutage",  # a lost database: 503 with Retry-After
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "api.errors.ApiErrorShape",  # 404, 405 and 413 under /api/ in the API's error shape
    "config.input.RefuseUnstorableInput",  # NUL and lone surrogates: a 400, never a 500
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "players.language.PlayerLanguageMiddleware",  # the player's language over the browser's
    "django.contrib.messages.middleware.MessageMiddleware",
    "players.match_links.MatchLinkSessionMiddleware",  # an email's match link opens one match
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "api.throttles.RateLimitHeaders",  # what is left of an API client's budget
    "config.csp.CSPMiddleware",  # django-csp's, with a fixed policy for JSON answers
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"), conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks: take the write lock at BEGIN and wait for it (PRACTICE.md).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA busy_timeout=5000; PRAGMA journal_mode=WAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    # A database host that hangs instead of refusing must not hold each request for the
    # kernel's TCP timeout; a kept connection that died with the server is checked before
    # use instead of failing the next request (PRACTICE.md).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 3)
    )
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "players.backends.LoginThrottle",  # django-axes: refuses locked sign-ins; comes first
    "django.contrib.auth.backends.ModelBackend",
    "sesame.backends.ModelBackend",
]
SESAME_MAX_AGE = env_int("MAGIC_LINK_MAX_AGE", 7 * 24 * 3600)
# Argon2 first, as Django's docs advise: a sign-in costs about a third less CPU than
# PBKDF2's million rounds, for a stronger hash. Older hashes still verify, and are
# upgraded at the next sign-in.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Proxies in front of the web processes that append to X-Forwarded-For (rate limits and
# login throttling count by client address). 0 on the embedded server.
PROXY_COUNT = env_int("PROXY_COUNT", 0 if DEBUG else 1)
# Login throttling (django-axes): failures are counted in the shared cache, by address and
# by client, and either locks sign-in with a password for the cool-off time. Sign-in links
# still work, so a locked-out owner is never stuck.
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "players.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "players.limits.client_address"
AXES_VERBOSE = False
# The link in a match's emails signs in to that match only, once, this long (players.match_links).
MATCH_LINK_MAX_AGE = env_int("MATCH_LINK_MAX_AGE", 24 * 3600)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
# The site's languages (issue 31). A player's own choice (Preferences.language) wins; else the
# browser's Accept-Language (LocaleMiddleware); mails use their recipient's.
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch"), ("fr", "Français")]
# Two catalogues: the games' words (names, narration, prompts, command words; kept beside the
# pure rules packages, which only mark message ids) and the platform's (pages, mails, refusals).
# makemessages files each string in the first of these whose folder holds its source.
LOCALE_PATHS = [BASE_DIR / "games" / "rules" / "locale", BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]

# --- Content-Security-Policy (django-csp 4) -------------------------------------------------
# Only our own scripts and stylesheets run: no inline <script>, <style> or style="" anywhere
# (SVG presentation attributes such as fill="" are not styles). A page that needs a script
# adds a static file: <script src="{% static 'js/....js' %}" defer></script>; if an inline
# script is ever unavoidable, give it nonce="{{ request.csp_nonce }}" (the nonce is added to
# script-src only when a page asks for it). htmx runs with allowEval off and its indicator
# styles in site.css (see base.html's htmx-config).
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [SELF],
    }
}

# --- Celery ---------------------------------------------------------------------------
# Embedded default: an in-process broker (the `serve` command runs worker and beat in the
# same process). Production: redis://. The outbox row is the record, so results are ignored.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "memory://localhost/")
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Handing a notification to Celery must never hold a request: the outbox row is already
# committed and the sweep sends it if the broker cannot take it now. Requests only queue it
# for a publishing thread (notifications.handoff); that thread, and the sweeps, must not be
# held either, so a publish makes one
# connection attempt (max_retries 0: kombu otherwise retries for broker_connection_timeout,
# with 2 s sleeps; each task took ~6 s with Redis down) with short socket timeouts, and
# apply_async(retry=False) does not retry the publish. The worker's own connection keeps
# retrying (broker_connection_retry and max_retries apply there, not these options).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "max_retries": 0,
    "socket_connect_timeout": 0.5,
    "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Celery's own defaults, stated because every publish reads them: a key these settings lack
# costs Celery about 20 µs to find (it tries each layer under both names), one they hold 4.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_SEND_SENT_EVENT = False
CELERY_BROKER_POOL_ACQUIRE_TIMEOUT = None
CELERY_TASK_EAGER_PROPAGATES = True
from config.schedule import CELERY_BEAT_SCHEDULE  # noqa: E402,F401  the sweeps

# beat's record of when each sweep last ran: with the other files of this installation.
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Cache ------------------------------------------------------------------------------
# Rate limits, throttles and the position cache must be shared by every web and worker
# process: Redis in production (CACHE_URL=redis://host:6379/1). The embedded default is one
# process, where local memory is shared by everything that runs.
CACHE_URL = env_str("CACHE_URL", "")
CACHES = {
    "default": (
        {
            # While Redis is unreachable each process uses its own memory (limits count per
            # process); a Redis that does not answer holds a request up for 0.5 s at most.
            "BACKEND": "config.resilient_cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
if not CACHE_URL:
    # axes warns that local memory is not shared between processes: true, and the embedded
    # server is one process. Production sets CACHE_URL (README), and the warning is moot.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

# --- Email ------------------------------------------------------------------------------
# Web Push (notifications.push): the server's VAPID key, PEM. Empty: one is made in VAR_DIR.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "notifications.mailbox.LocalMailboxBackend")
# Django's SMTP backend (django.core.mail.backends.smtp.EmailBackend), e.g. your own Postfix
# on loopback: docs/notifications.md, "Running your own MTA".
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Postal Boards <play@localhost>")
REPLY_DOMAIN = env_str("REPLY_DOMAIN", "localhost")
# Email in (docs/notifications.md, "Replies"): the authserv-id our own MX writes in
# Authentication-Results (empty: trust no such header), the largest message read whole, and
# how many notices an hour one registered person may get about mail we could not take.
INBOUND_AUTHSERV_ID = env_str("INBOUND_AUTHSERV_ID", "")
INBOUND_MAX_BYTES = env_int("INBOUND_MAX_BYTES", 512 * 1024)
INBOUND_NOTICES_PER_HOUR = env_int("INBOUND_NOTICES_PER_HOUR", 3)
# The local mailbox (DEBUG only) holds everyone's sign-in links: staff only, unless `serve`
# listens on loopback only, where everyone who can reach it is on this machine.
LOCAL_MAILBOX_OPEN = False
# Delivery (docs/notifications.md): transient failures are retried this long after the first
# one before the address is marked failing and the player's deadlines stop.
OUTBOX_RETRY_FOR = env_int("OUTBOX_RETRY_FOR", 36 * 3600)
# While an address is failing after an outage, its latest message is tried again this often.
OUTBOX_PROBE_EVERY = env_int("OUTBOX_PROBE_EVERY", 3 * 3600)
# Live play: a turn email for a player seen on the match page within LIVE_PLAY_SEEN_WITHIN
# seconds waits LIVE_PLAY_HOLD seconds (and is dropped if they move), for LIVE_PLAY_MAX_HOLD
# seconds at most.
LIVE_PLAY_SEEN_WITHIN = env_int("LIVE_PLAY_SEEN_WITHIN", 180)
LIVE_PLAY_HOLD = env_int("LIVE_PLAY_HOLD", 240)
LIVE_PLAY_MAX_HOLD = env_int("LIVE_PLAY_MAX_HOLD", 1800)
# Webhooks, channels and push endpoints go to public addresses only, so that nobody can make
# the server call its own network; tests that post to a loopback endpoint turn this on.
NOTIFICATIONS_ALLOW_PRIVATE_WEBHOOKS = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
ANYMAIL = {
    key: value
    for key, value in {
        "WEBHOOK_SECRET": env_str("ANYMAIL_WEBHOOK_SECRET", ""),
        "MAILGUN_API_KEY": env_str("MAILGUN_API_KEY", ""),
        "MAILGUN_SENDER_DOMAIN": env_str("MAILGUN_SENDER_DOMAIN", ""),
        "POSTMARK_SERVER_TOKEN": env_str("POSTMARK_SERVER_TOKEN", ""),
        "SENDGRID_API_KEY": env_str("SENDGRID_API_KEY", ""),
        "AMAZON_SES_CLIENT_PARAMS": {},
    }.items()
    if value
}

# --- Game platform ----------------------------------------------------------------------
SNAPSHOT_EVERY = env_int("SNAPSHOT_EVERY", 50)

# --- Security (production) --------------------------------------------------------------
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_REFERRER_POLICY = "same-origin"
    if SECRET_KEY == _DEV_KEY:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is off.")
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_outage": {"()": "config.database_outage.QuietOutage"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # One line a while for a database outage (config.database_outage), not a trace a request.
        "django.request": {"filters": ["quiet_outage"]},
    },
}
