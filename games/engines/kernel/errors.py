from typing import Any


class RuleError(Exception):
    """An action broke a rule. The message is a sentence a player understands."""

    def __init__(self, message: str, extra: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}
