from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

if TYPE_CHECKING:  # DRF's settings import this module while rest_framework.views loads
    from rest_framework.views import APIView

MAX_OFFSET = 1_000_000
PAGE_PARAMETER = gettext_lazy("{name} is a whole number of at least {low}.")


class ChroniclePagination(LimitOffsetPagination):
    """?limit=&offset= (default 50, at most 200: a larger limit gives 200); a value that is not a
    whole number is a 400 (as the schema says), an absurd offset an empty page, never a 500."""

    default_limit = 50
    # The schema's words are the developers' documentation, in English for every reader (DRF's are lazy).
    limit_query_description = "Number of results to return per page."
    offset_query_description = "The initial index from which to return the results."
    max_limit = 200

    def _number(self, request: Request, name: str, low: int) -> int | None:
        if name not in request.query_params:
            return None
        raw = request.query_params[name]
        if not (raw.isascii() and raw.isdigit()) or int(raw) < low:
            raise ValidationError({name: [PAGE_PARAMETER.format(name=name, low=low)]})
        return int(raw)

    def get_limit(self, request: Request) -> int:
        limit = self._number(request, self.limit_query_param, 1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request: Request) -> int:
        return min(self._number(request, self.offset_query_param, 0) or 0, MAX_OFFSET)

    def get_schema_operation_parameters(self, view: "APIView") -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            low = 1 if parameter["name"] == self.limit_query_param else 0
            parameter["schema"] = {**parameter["schema"], "minimum": low}
        return parameters
