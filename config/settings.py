"""One settings module, driven by the environment (docs/architecture.md section 6).

Embedded default: SQLite in the project folder and Celery tasks run eagerly in-process.
Production: DATABASE_URL (PostgreSQL), REDIS_URL (Celery broker, cache, live updates), SECRET_KEY,
DEBUG=0, ALLOWED_HOSTS.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(int(default))).lower() in {"1", "true", "yes", "on"}


def _env_number(name: str, default, *, low, high, kind, unit: str):
    """A number from the environment, refused at start-up unless it lies in [low, high]."""
    from django.core.exceptions import ImproperlyConfigured

    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number of {unit}, not {raw!r}.") from None
    if not low <= value <= high:  # also refuses nan and inf
        raise ImproperlyConfigured(f"{name} must lie between {low:g} and {high:g} {unit}, not {raw}.")
    return value


def env_rate(name: str, default: str) -> str:
    """A rate such as "600/min" or "20/s" from the environment ("0": none, answered as "")."""
    from django.core.exceptions import ImproperlyConfigured

    raw = os.environ.get(name, default).strip()
    if raw == "0":
        return ""
    count, _, period = raw.partition("/")
    if not (
        count.isascii() and count.isdigit() and 0 < int(count) <= 10**6 and period[:1] in ("s", "m", "h")
    ):
        raise ImproperlyConfigured(f"{name} must be a rate such as 600/min, 20/s or 0 for none, not {raw!r}.")
    return raw


def env_seconds(name: str, default: float, *, low: float, high: float) -> float:
    return _env_number(name, default, low=low, high=high, kind=float, unit="seconds")


def env_count(name: str, default: int, *, low: int, high: int) -> int:
    return _env_number(name, default, low=low, high=high, kind=int, unit="connections")


# The embedded default (make run: CHRONICLE_EMBEDDED=1) serves a game night on a home network:
# SQLite, eager tasks, plain HTTP, and DEBUG off, so no other machine ever sees a traceback or
# Django's debug 404 (they list settings and every URL). Errors still go to the console log.
EMBEDDED = env_bool("CHRONICLE_EMBEDDED", False)
DEBUG = env_bool("DEBUG", not EMBEDDED)


def _embedded_secret_key() -> str:
    """A key of this installation, made once and kept next to the database (not in git)."""
    path = Path(os.environ.get("CHRONICLE_SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    if not path.exists():
        import secrets

        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "dev-only-insecure-key-set-SECRET_KEY-in-production"
    if DEBUG
    else _embedded_secret_key()
    if EMBEDDED
    else ""
)
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")

# Where phones open their seats (e.g. http://192.168.1.23:8000 or https://chronicle.example.org).
# Unset: the table screen uses the address the host browses with, or this machine's LAN address
# when the host browses on localhost (config/network.py).
CHRONICLE_PUBLIC_URL = os.environ.get("CHRONICLE_PUBLIC_URL", "").rstrip("/")
# The one-click demo login: only where the demo is served (development, make run), and only for
# requests from this machine itself (campaign/views.py checks REMOTE_ADDR).
DEMO_LOGIN = env_bool("CHRONICLE_DEMO_LOGIN", DEBUG or EMBEDDED)

if "ALLOWED_HOSTS" in os.environ:  # production names its hosts (never "*")
    ALLOWED_HOSTS = [h for h in os.environ["ALLOWED_HOSTS"].split(",") if h]
else:  # the embedded default: this machine, by loopback and by its LAN addresses (phones)
    from urllib.parse import urlsplit

    from config.network import lan_addresses

    ALLOWED_HOSTS = [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "testserver",
        *lan_addresses(),
        *([urlsplit(CHRONICLE_PUBLIC_URL).hostname or ""] if CHRONICLE_PUBLIC_URL else []),
    ]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",  # unused since api.DeviceToken: kept for api migration 0002
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files, not a CDN
    "django_filters",
    "django_htmx",
    "allauth",
    "allauth.account",
    "campaign",
    "games",
    "api",
]

MIDDLEWARE = [
    "config.db_faults.DatabaseFaultMiddleware",  # first: sees what a view raised (config/db_faults.py)
    "django.middleware.security.SecurityMiddleware",
    # Compresses what every middleware below answered (the API's error shape included), never a stream.
    "games.live.asgi.GZipExceptStreamsMiddleware",
    "config.api_errors.ApiErrorShapeMiddleware",
    "config.input_guard.InputGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session (the account's language is kept there), before CommonMiddleware (Django's
    # rule for LocaleMiddleware): the reader's language and time zone (config/locale.py).
    "config.locale.ReaderLocaleMiddleware",
    "config.locale.ReaderTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "config.admin_guard.AdminFromThisMachineMiddleware",
]

# Content-Security-Policy (Django's own, django.middleware.csp): scripts and style sheets from our
# origin only (htmx is served by django-htmx from /static/), no inline or third-party script, no
# plugins, no framing. Inline style attributes stay allowed: seat colours are set as CSS variables
# (style="--seat: #...") and cannot run code.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

ROOT_URLCONF = "config.urls"
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
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# Threads per server process for the pages, taps and the API (config/asgi.py): requests answered at the
# same time by one process. Each holds a database connection while it answers: keep it within the
# pool's DATABASE_POOL_MAX_SIZE (10).
PAGE_THREADS = env_count("CHRONICLE_PAGE_THREADS", 8, low=1, high=64)

# Persistent connections (a new PostgreSQL connection per request costs more than the request),
# checked before reuse so a database restart costs one retry, not an error. CONN_MAX_AGE=0: one per
# request. (runserver closes each request thread's connections anyway.)
# Under ASGI (docker/, the bench's server) each request's sync code runs in a thread of its own, so a
# connection cannot persist with its thread: DATABASE_POOL=1 keeps PostgreSQL connections in a pool
# per process instead (Django's "pool" option, psycopg_pool; Django requires CONN_MAX_AGE=0 with it):
# a request borrows one, checked when CONN_HEALTH_CHECKS is on, and gives it back when it ends.
# With SQLite (make run), DATABASE_POOL=1 keeps them in a pool per process too (config/sqlite_pool:
# Django has none for SQLite), so a request no longer opens the file, parses the schema and runs the
# pragmas, nor checkpoints and deletes the write-ahead log when its connection closes.
DATABASE_POOL = env_bool("DATABASE_POOL", False)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0 if DATABASE_POOL else int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if DATABASE_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_count("DATABASE_POOL_MIN_SIZE", 2, low=0, high=100),
        "max_size": env_count("DATABASE_POOL_MAX_SIZE", 10, low=1, high=100),
        "timeout": env_seconds("DATABASE_POOL_TIMEOUT", 10.0, low=0.1, high=600.0),
    }
# The embedded default: SQLite that waits instead of answering "database is locked". WAL lets
# readers go on while one writer writes; synchronous=NORMAL is durable in WAL mode except for the
# last commits on a power cut; a writer waits up to SQLITE_BUSY_TIMEOUT seconds for the lock; and
# every transaction takes the write lock when it begins (IMMEDIATE), so two transactions never
# both read and then deadlock upgrading to write (SQLite answers that at once, without waiting).
# Tests get a file database (not :memory:, whose shared cache locks tables without waiting), one
# per process, removed at the end.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": env_seconds("SQLITE_BUSY_TIMEOUT", 20.0, low=0.1, high=600.0),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path(tempfile.gettempdir()) / f"chronicle-test-{os.getpid()}.sqlite3")
    )
    if DATABASE_POOL:  # make run's server under ASGI: SQLite connections kept per process
        DATABASES["default"]["ENGINE"] = "config.sqlite_pool"
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "max_size": env_count("DATABASE_POOL_MAX_SIZE", 10, low=1, high=100)
        }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's four: at least 8 characters, not like the username or email, not a common password, not
# all digits (sign-up, password change and reset; pages and API alike).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth, config/accounts.py): sign up, log in by username or email, log out,
# change and reset the password. No sign-up administers the install (config/administrator.py). Verifying
# the email address is optional by default (a home network has no mail server): "mandatory" to require it.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "config.accounts.ChronicleAccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("CHRONICLE_EMAIL_VERIFICATION", "optional")
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_PRESERVE_USERNAME_CASING = False
# The logins and sign-ups are limited per client address, and the wrong passwords per (login,
# address), by config/ratelimits.py (behind the trusted proxies): allauth's own count of failed
# logins per account alone would let a stranger lock a member out. allauth keeps its limits of the
# rest (password resets, e-mail confirmations).
ACCOUNT_RATE_LIMITS = {"login": None, "signup": None, "login_failed": None}

# Mail (password resets, address confirmations): to the console unless EMAIL_HOST names an SMTP
# server (Django's MAILERS; README's settings table).
_email_host = os.environ.get("EMAIL_HOST", "")
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _email_host,
                "port": int(os.environ.get("EMAIL_PORT", "587")),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "use_ssl": env_bool("EMAIL_USE_SSL", False),
                "timeout": 10,
            },
        }
        if _email_host
        else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    )
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "chronicle@localhost")

# /admin/ only from this machine (loopback) under the embedded default, where make run serves the
# whole home network; open in production (behind the TLS proxy every peer is the proxy) and while
# developing. CHRONICLE_ADMIN_FROM_NETWORK=1 opens it, 0 closes it (config/admin_guard.py).
ADMIN_FROM_NETWORK = env_bool("CHRONICLE_ADMIN_FROM_NETWORK", not EMBEDDED)

LANGUAGE_CODE = "en"  # the language when the reader's is unknown or not one of LANGUAGES
# Each reader's language (config/locale.py): the account's, the chooser's cookie, or the browser's.
# The catalogues are in locale/<code>/LC_MESSAGES (docs/translations.md).
# The choosers name each language in its own words (Django's name_local), never translated.
LANGUAGES = [
    ("en", "English"),
    ("it", "Italian"),
    ("de", "German"),
    ("fr", "French"),
    ("es", "Spanish"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "chronicle_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"  # the server's; each reader's zone is activated per request (config/locale.py)
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Uploads are refused while being received (config/uploads.py): a file (one campaign archive: the
# import's ARCHIVE_MAX_BYTES in campaign/services/archive/format.py, a test checks they agree) up to
# UPLOAD_MAX_BYTES, a whole request body up to REQUEST_BODY_MAX_BYTES (the file, the other fields and
# the multipart framing). The ASGI application applies the body limit to every request (config/asgi.py).
UPLOAD_MAX_BYTES = 32 * 1024 * 1024
REQUEST_BODY_MAX_BYTES = UPLOAD_MAX_BYTES + 256 * 1024
FILE_UPLOAD_HANDLERS = [
    "config.uploads.UploadLimitHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
MEDIA_URL = "media/"

# Redis: Celery broker, shared cache and live-update fan-out. Absent = embedded default.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the task for another worker
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis down: the worker keeps reconnecting (never gives up), and cancels what it was running when
# the connection went (acks late: those tasks are delivered again, and every task is idempotent).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A task whose worker died unacknowledged goes back to the queue after this (kombu: one hour).
    # Longer than any task (an export takes seconds); the export sweep covers the rest.
    "visibility_timeout": 600,
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
    "socket_keepalive": True,
    "health_check_interval": 10,
    "retry_on_timeout": True,
}
CELERY_REDIS_BACKEND_HEALTH_CHECK_INTERVAL = 10
CELERY_REDIS_SOCKET_KEEPALIVE = True
CELERY_REDIS_RETRY_ON_TIMEOUT = True
# beat: bots whose wake-up was lost while Redis was down play again within this many seconds of
# its return (one query of the idle active sessions with bots; config/celery.py heartbeat: beat
# is seen alive on /status/ while its ticks are younger than two intervals).
CHRONICLE_BOTS_WAKE_SECONDS = 10.0
CHRONICLE_BEAT_HEARTBEAT_SECONDS = 10.0
# Exports: a pending export not written this long after its task was sent is sent again by the
# sweep, at most CHRONICLE_EXPORT_MAX_ATTEMPTS times in all; then it fails and says why.
CHRONICLE_EXPORT_STALE_SECONDS = 120
CHRONICLE_EXPORT_MAX_ATTEMPTS = 3
CELERY_BEAT_SCHEDULE = {
    "close-abandoned-sessions": {"task": "games.tasks.session_cleanup_task", "schedule": 3600.0},
    # The frequent ones expire after one interval: a worker back after an outage runs the newest
    # only, not one per missed tick.
    "wake-stalled-bots": {
        "task": "games.tasks.session_bots_wake_task",
        "schedule": CHRONICLE_BOTS_WAKE_SECONDS,
        "options": {"expires": CHRONICLE_BOTS_WAKE_SECONDS},
    },
    "sweep-stale-exports": {
        "task": "campaign.tasks.campaign_export_sweep_task",
        "schedule": 60.0,
        "options": {"expires": 60.0},
    },
    "beat-heartbeat": {
        "task": "config.celery.beat_heartbeat_task",
        "schedule": CHRONICLE_BEAT_HEARTBEAT_SECONDS,
        "options": {"expires": CHRONICLE_BEAT_HEARTBEAT_SECONDS},
    },
}

# Push (games/live/streams.py): django-eventstream streams channel session-{id} to each page; its event
# ids are session versions (a reconnecting page catches up from the version it last had).
EVENTSTREAM_CHANNELMANAGER_CLASS = "games.live.streams.SessionChannelManager"
EVENTSTREAM_STORAGE_CLASS = "games.live.streams.VersionStorage"
# The fallback while push is down: pages check the version this often. Under a second would let a
# table of phones flood a home Wi-Fi server; over a minute is no longer "live".
LIVE_POLL_SECONDS = env_seconds("CHRONICLE_POLL_SECONDS", 2.0, low=0.2, high=60.0)

CACHES = {
    "default": (
        # Redis down is a miss, never a 500 (config/cache.py). KEPT_HERE: keys whose value never
        # changes once written, kept in each process too (games/versions.py's facts of a version,
        # read by every screen of the version).
        {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"KEPT_HERE": ["facts:"]},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # The log-in, sign-up and stream limits (config/ratelimits.py): Redis (shared by the replicas),
    # else a table of the database (made by every migrate, make run's included): never the local
    # memory above, which culls a third of its entries when full and so forgets attempts.
    # MAX_ENTRIES: culling drops expired counters first, never live ones short of a million.
    "limits": (
        {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "limits"}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "chronicle_limits",
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        }
    ),
}

# Rate limits (login, seat joins): counted in the limits cache (Redis in production, a database
# table otherwise), which no flood of fresh cookies can cull.
RATELIMIT_VIEW = "config.health.rate_limited"
RATELIMIT_USE_CACHE = "limits"
# The proxies (addresses or networks, comma-separated) whose X-Forwarded-For is believed: the rate
# limits then key on the client address they forward (config/ratelimits.py, docs/operations.md).
TRUSTED_PROXIES = [p for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
RATELIMIT_IP_META_KEY = "config.ratelimits.client_address"
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"] if not REDIS_URL else []

# API tokens expire (seconds; log in again for a new one). docs/api.md.
# Open event streams per server process (games/live/caps.py): past it, a new one is answered 503 and
# the page polls instead.
MAX_OPEN_STREAMS = int(os.environ.get("CHRONICLE_MAX_STREAMS", "2000"))

API_TOKEN_LIFETIME = int(os.environ.get("API_TOKEN_LIFETIME", str(30 * 24 * 3600)))

# The API's rate limit per caller (api/throttles.py): requests per second, minute or hour; "0" for none.
API_RATE = env_rate("CHRONICLE_API_RATE", "600/min")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.CallerRateThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exception_handlers.chronicle_exception_handler",
    "DEFAULT_PARSER_CLASSES": ["api.parsers.ChronicleJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON only in production (no browsable-API negotiation and templates on the request path);
    # the browsable API while developing. The schema and its docs pages have their own renderers.
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Chronicle API",
    "DESCRIPTION": "Campaign tracker and table companion for The King's Dilemma, For the King (and Me) and Council of Four.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A phone at a table holds only its seat's token (api/schema.py adds it to the seat operations).
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "seatToken": {
                "type": "apiKey",
                "in": "header",
                "name": "X-Seat-Token",
                "description": "A seat's secret join token (the last part of the seat's QR code link): lets a "
                "phone see and act for that seat without an account. With openapi-python-client: "
                '`AuthenticatedClient(base_url, token=seat_token, auth_header_name="X-Seat-Token", prefix="")`.',
            }
        }
    },
    # api/view_schema.py: the engines' declared views, results, parameters and settings as components.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.view_schema.typed_contract_hook",
    ],
    # config/converters.py: an id in a path is an integer of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    # A member's role and an invitation's role (never owner) are two choice sets named "role".
    "ENUM_NAME_OVERRIDES": {
        "MemberRoleEnum": "campaign.models.Membership.Role",
        "InvitationRoleEnum": "campaign.models.Invitation.Role",
        "ErrorCodeEnum": "config.api_errors.ERROR_CODE_CHOICES",
        "ExportStatusEnum": "campaign.models.CampaignExport.Status",
    },
}

if not DEBUG and not EMBEDDED:  # plain HTTP on a home network for the embedded default
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading is a promise to browsers that is slow to undo: only when the operator asks for it.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "security.W021"]  # preload: opt-in
    if not _email_host:  # no mail server: the mails go to the log (docs/operations.md), by choice
        SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "mail.E001"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
