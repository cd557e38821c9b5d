"""Admin for sessions: read-mostly, since only games.services writes them (the log is append-only)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import GameSession, Seat, SessionAction


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "name", "colour", "user", "is_bot")
    readonly_fields = ("index", "is_bot")  # fixed at creation (GameSession.has_bots)
    can_delete = False


class SessionActionInline(admin.TabularInline):
    model = SessionAction
    extra = 0
    fields = ("seq", "seat", "label", "version", "undone", "created")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "version", "host", "campaign", "last_activity")
    list_filter = ("game", "status")
    search_fields = ("id", "seats__name", "host__username")
    readonly_fields = (
        "game",
        "config",
        "seed",
        "version",
        "state",
        "created",
        "updated",
        "last_activity",
        "last_seq",
        "has_bots",
    )
    raw_id_fields = ("host", "campaign", "chronicle_game")
    inlines = [SeatInline, SessionActionInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "index", "name", "user", "is_bot")
    search_fields = ("name", "session__id")
    readonly_fields = ("session", "index", "token", "is_bot")
    raw_id_fields = ("user",)


@admin.register(SessionAction)
class SessionActionAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "seq", "seat", "label", "version", "undone", "created")
    list_filter = ("undone",)
    search_fields = ("label", "idempotency_key", "session__id")
    readonly_fields = (
        "session",
        "seq",
        "seat",
        "payload",
        "label",
        "idempotency_key",
        "version",
        "undone",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
