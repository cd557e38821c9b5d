from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django_ratelimit.decorators import ratelimit

from config.health import healthz, ping, status_page

urlpatterns = [
    path("", include("campaign.urls")),
    path("play/", include("games.urls")),
    path("api/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("ping", ping, name="ping"),
    path("status/", status_page, name="status"),
    path(
        "accounts/login/",
        ratelimit(key="ip", rate="20/m", method="POST", block=True)(auth_views.LoginView.as_view()),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
