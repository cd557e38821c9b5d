"""The API's JSON parser: DRF's, refusing what would crash or burden the server. JSON that nests
deeper than a few dozen levels (or so deep that Python's decoder recurses out) is a 400."""

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from config.json_limits import JSON_LONE_SURROGATE, json_depth_exceeds, json_loads_strict, json_lone_surrogate

JSON_MAX_DEPTH = 32  # far above any body of the API (an action nests 3 or 4 levels)
JSON_TOO_DEEP = format_lazy(
    gettext_lazy("The JSON body nests deeper than {depth} levels."), depth=JSON_MAX_DEPTH
)
JSON_INVALID = gettext_lazy("JSON parse error - {problem}")


class ChronicleJSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if limit is not None and len(raw) > limit:
            raise RequestDataTooBig()
        try:
            data = json_loads_strict(raw.decode(encoding))
        except RecursionError:
            raise ParseError(JSON_TOO_DEEP) from None
        except ValueError as error:  # includes UnicodeDecodeError and JSONDecodeError
            raise ParseError(JSON_INVALID.format(problem=error)) from None
        if json_depth_exceeds(data, JSON_MAX_DEPTH):
            raise ParseError(JSON_TOO_DEEP)
        if json_lone_surrogate(data):
            raise ParseError(JSON_INVALID.format(problem=JSON_LONE_SURROGATE))
        return data
