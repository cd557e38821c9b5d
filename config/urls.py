from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path

import config.converters  # noqa: F401  (registers <id:...> before the apps' URLs load)
from campaign.views import preferences
from config.administrator import administrator_setup
from config.health import healthz, ping, status_page
from config.pwa import clears_site_data, favicon, manifest, offline, service_worker
from config.ratelimits import login_rate_limited, signup_rate_limited

urlpatterns = [
    # The phones' pages and the API first: every tap and panel fetch is resolved, and the campaign's
    # URLs (at the root, none under play/ or api/) would each be tried before them.
    path("play/", include("games.urls")),
    path("api/", include("api.urls")),
    path("", include("campaign.urls")),
    path("admin/login/", login_rate_limited(admin.site.login)),  # before the admin's own URLs
    # The one-time link that makes the install's administrator: under /admin/, so kept to this
    # machine under make run as the admin is (config/admin_guard.py).
    path("admin/setup/<str:token>/", administrator_setup, name="administrator-setup"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("ping", ping, name="ping"),
    path("status/", status_page, name="status"),
    # The installable app (config/pwa.py): at the root, the service worker's scope.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("favicon.ico", favicon, name="favicon"),
    path("offline/", offline, name="offline"),
    # Accounts (django-allauth): its login and sign-up rate-limited per client address, before its
    # own URLs; "login" and "logout" are the names the project reverses.
    path("accounts/login/", login_rate_limited(account_views.login), name="login"),
    path("accounts/signup/", signup_rate_limited(account_views.signup), name="account_signup"),
    path("accounts/logout/", clears_site_data(account_views.logout), name="logout"),
    path("accounts/", include("allauth.urls")),
    # The language chooser: Django's set_language (the language cookie, then back to the page), and
    # the account's language for a signed-in reader.
    path("i18n/setlang/", preferences.language_choose, name="set_language"),
]

# django-allauth's own limits (password resets, e-mail confirmations) answer with the site's 429 page.
handler429 = "config.health.rate_limited"
