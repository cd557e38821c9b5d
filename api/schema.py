"""OpenAPI naming: one view per operation, so the operation id is the view's name
(``StickerAttachApi`` -> ``sticker_attach``), and each view's nested InputSerializer/OutputSerializer
becomes a component named after its view (``StickerAttachApi.InputSerializer`` ->
``StickerAttachRequest``), so the many nested classes of the same name never collide.

The statuses every operation can answer whatever its view are declared here, once,
rather than in each view's ``responses=``: see ``common_statuses``."""

import inspect
import re
from typing import TYPE_CHECKING, Any, Literal

from django.core.validators import ProhibitNullCharactersValidator
from django.utils import translation
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication

from api.errors import RETRY_AFTER, errors
from api.fields import NameField
from games.access import SEAT_TOKEN_HEADER
from games.engines.kernel.text import BIDI_CONTROLS

if TYPE_CHECKING:  # DRF's settings import this module while rest_framework.views loads
    from rest_framework.views import APIView

NESTED = {"InputSerializer", "OutputSerializer"}
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
SEAT_TOKEN = SEAT_TOKEN_HEADER  # the seat operations' header (games/access.py): also a security scheme


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    """The API token as an http bearer scheme, the form generators know: their clients send
    ``Authorization: Bearer <token>`` by default, which the API accepts beside ``Token <token>``."""

    target_class = "api.authentication.ExpiringTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A device token from POST /api/auth/token/ or /api/auth/signup/, sent as "
            "`Authorization: Bearer <token>` (`Token <token>` is accepted too). It expires after 30 days.",
        }


class ChronicleAutoSchema(AutoSchema):
    def get_operation_id(self) -> str:
        name = type(self.view).__name__.removesuffix("Api")
        return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()

    def get_description(self) -> str:  # type: ignore[override]  # drf-spectacular answers a str
        """An operation's words for client developers: the docstring of its method, else of its view
        class itself; never one inherited from a base class (those are notes about the code)."""
        method = getattr(self.view, self.method.lower(), None)
        doc = getattr(method, "__doc__", None) or type(self.view).__dict__.get("__doc__")
        return inspect.cleandoc(doc) if doc else ""

    def get_serializer_name(
        self, serializer: serializers.Serializer, direction: Literal["request", "response"]
    ) -> str:
        parts = type(serializer).__qualname__.split(".")
        names = [p.removesuffix("Serializer").removesuffix("Api") for p in parts if p not in NESTED]
        return "".join(names) or super().get_serializer_name(serializer, direction)

    def _map_serializer_field(
        self, field: serializers.Field, direction: str, bypass_extensions: bool = False
    ) -> dict:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "request" and isinstance(field, serializers.CharField) and "pattern" not in schema:
            pattern = text_pattern(field)
            if pattern:
                schema["pattern"] = pattern
        return schema

    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any
    ) -> dict | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code in common_statuses(self.view, operation, self.method) - {int(c) for c in responses}:
            responses[str(code)] = self._get_response_for_code(errors(code)[code], str(code))
        for waited in ("429", "503"):
            if waited in responses:
                responses[waited].setdefault("headers", {}).update(RETRY_AFTER)
        operation["responses"] = dict(sorted(responses.items()))
        if any(p["in"] == "header" and p["name"] == SEAT_TOKEN for p in operation.get("parameters", [])):
            operation.setdefault("security", []).insert(0, {"seatToken": []})
        return operation


# What a text field of a body refuses, as JSON Schema patterns (so that a text the schema
# allows is never refused): a NUL (DRF's ProhibitNullCharactersValidator); in a name, every control character and
# bidi control (games/engines/kernel/text.py: categories Cc and Cs and BIDI_CONTROLS), once the ends are
# stripped of whitespace (what Python's str.strip() removes); and, where a blank text is refused, a
# text of whitespace only.
NUL = "\\x00"
CONTROL = "\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff" + "".join(f"\\u{ord(c):04x}" for c in sorted(BIDI_CONTROLS))
WHITESPACE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"


def text_pattern(field: serializers.CharField) -> str | None:
    if isinstance(field, NameField):
        refused = CONTROL
    elif any(isinstance(v, ProhibitNullCharactersValidator) for v in field.validators):
        refused = NUL
    else:
        return None
    # Never the empty text: where it is taken, drf-spectacular adds it (oneOf: this pattern or
    # maxLength 0), and the two must not both match it.
    if not field.trim_whitespace:
        return f"^[^{refused}]+$"
    # DRF strips the ends first: whitespace (control or not) around a text whose own ends are
    # neither, and which holds nothing refused; or, where blank is taken, whitespace only.
    kept = f"[^{refused}{WHITESPACE}]"
    text = f"{kept}(?:[^{refused}]*{kept})?"
    if field.allow_blank:
        text = f"(?:{text}|[{WHITESPACE}])"
    return f"^[{WHITESPACE}]*{text}[{WHITESPACE}]*$"


def common_statuses(view: "APIView", operation: dict, method: str) -> set[int]:
    """What an operation may answer before or besides its view's own refusals:

    - 400: a NUL character in the address or a query parameter (config/input_guard.py);
    - 401: an unknown or expired token (any view that authenticates);
    - 403: a logged-in browser's write without its CSRF token;
    - 404: an id in the path that is not there;
    - 405: another method on this path;
    - 415: a body that is not JSON (an operation that reads a body);
    - 422: an Idempotency-Key used before with another body;
    - 429: the API's throttle per caller (api/throttles.py), on every operation;
    - 503: a write whose database connection was lost mid-request (config/db_faults.py)."""
    codes = {400, 405, 429}
    if method in UNSAFE:
        codes.add(503)
    authenticators = getattr(view, "authentication_classes", [])
    if authenticators:
        codes.add(401)
        if method in UNSAFE and any(issubclass(a, SessionAuthentication) for a in authenticators):
            codes.add(403)
    parameters = operation.get("parameters", [])
    if any(p["in"] == "path" for p in parameters):
        codes.add(404)
    if "requestBody" in operation:
        codes.add(415)
    if any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in parameters):
        codes.add(422)
    return codes


class EnglishSchemaApi(SpectacularAPIView):
    """The schema is the developers' documentation: English, the same bytes whatever the reader's
    language (a model's choices are translated for pages, and would otherwise follow the request)."""

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        with translation.override("en"):
            response = super().dispatch(request, *args, **kwargs)
            return response.render() if hasattr(response, "render") else response
