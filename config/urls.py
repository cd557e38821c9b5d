from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

import config.converters  # noqa: F401  (registers <id:...> before the apps' URLs load)
from config.health import healthz, ping, status_page
from config.ratelimits import login_rate_limited

urlpatterns = [
    path("", include("campaign.urls")),
    path("play/", include("games.urls")),
    path("api/", include("api.urls")),
    path("admin/login/", login_rate_limited(admin.site.login)),  # before the admin's own URLs
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("ping", ping, name="ping"),
    path("status/", status_page, name="status"),
    path(
        "accounts/login/",
        login_rate_limited(auth_views.LoginView.as_view()),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
