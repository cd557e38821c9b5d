"""Admin for the API's device tokens: read and revoke (delete) only; a token is made by logging in.
DRF's one-per-user tokens are no longer used (moved to device tokens), so their admin is gone."""

from django.contrib import admin
from django.http import HttpRequest
from rest_framework.authtoken.models import TokenProxy

from api.models import DeviceToken

if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "created", "last_used")
    list_select_related = ("user",)
    search_fields = ("name", "user__username")
    fields = ("user", "name", "created", "last_used")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
