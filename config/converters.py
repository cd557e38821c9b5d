"""The ``<id:...>`` path converter: a database id as the URL carries it. At most 18 digits, so every
id it passes fits a signed 64-bit integer on SQLite and PostgreSQL alike (a larger one is a 404,
never an overflow inside the database driver)."""

from django.urls import register_converter

ID_MAX_DIGITS = 18  # 10**18 - 1 < 2**63 - 1


class DatabaseIdConverter:
    regex = f"[0-9]{{1,{ID_MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(DatabaseIdConverter, "id")

# The OpenAPI schema states it as an integer with its bound (settings.SPECTACULAR_SETTINGS).
SCHEMA = {"type": "integer", "minimum": 0, "maximum": 10**ID_MAX_DIGITS - 1}
