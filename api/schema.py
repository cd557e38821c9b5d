"""OpenAPI naming: one view per operation, so the operation id is the view's name
(``StickerAttachApi`` -> ``sticker_attach``), and each view's nested InputSerializer/OutputSerializer
becomes a component named after its view (``StickerAttachApi.InputSerializer`` ->
``StickerAttachRequest``), so the many nested classes of the same name never collide.

The statuses every operation can answer whatever its view (issue 25) are declared here, once,
rather than in each view's ``responses=``: see ``common_statuses``."""

import re

from drf_spectacular.openapi import AutoSchema
from rest_framework.authentication import SessionAuthentication

from api.errors import RETRY_AFTER, errors

NESTED = {"InputSerializer", "OutputSerializer"}
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class ChronicleAutoSchema(AutoSchema):
    def get_operation_id(self) -> str:
        name = type(self.view).__name__.removesuffix("Api")
        return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()

    def get_serializer_name(self, serializer, direction) -> str:
        parts = type(serializer).__qualname__.split(".")
        names = [p.removesuffix("Serializer").removesuffix("Api") for p in parts if p not in NESTED]
        return "".join(names) or super().get_serializer_name(serializer, direction)

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code in common_statuses(self.view, operation, self.method) - {int(c) for c in responses}:
            responses[str(code)] = self._get_response_for_code(errors(code)[code], str(code))
        if "429" in responses:
            responses["429"].setdefault("headers", {}).update(RETRY_AFTER)
        operation["responses"] = dict(sorted(responses.items()))
        return operation


def common_statuses(view, operation: dict, method: str) -> set[int]:
    """What an operation may answer before or besides its view's own refusals:

    - 400: a NUL character in the address or a query parameter (config/input_guard.py);
    - 401: an unknown or expired token (any view that authenticates);
    - 403: a logged-in browser's write without its CSRF token;
    - 404: an id in the path that is not there;
    - 405: another method on this path;
    - 415: a body that is not JSON (an operation that reads a body);
    - 422: an Idempotency-Key used before with another body;
    - 429: the API's throttle per caller (api/throttles.py), on every operation."""
    codes = {400, 405, 429}
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
