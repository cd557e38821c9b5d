"""The seat-token rule lives in one place (games/join_guard.py): the phone's pages, the API and the
event streams all ask ``seat_for_join_token``, so a change to how a seat's token is read, compared or
rate limited reaches the three at once."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
APPS = ("api", "campaign", "config", "games")
RULE = Path("games/join_guard.py")
# What only the rule itself may do: name the header, compare a seat's token.
ITS_OWN = ('"X-Seat-Token"', "compare_digest(seat.token")


def places(text: str) -> dict[Path, list[str]]:
    """The application modules that hold ``text`` (migrations aside)."""
    found: dict[Path, list[str]] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts and text in path.read_text(encoding="utf-8"):
                found.setdefault(path.relative_to(ROOT), []).append(text)
    return found


# The settings are read before any application: their OpenAPI security scheme names the header as
# text, checked against the rule's below.
SETTINGS = Path("config/settings.py")


def test_only_the_join_guard_names_the_seat_token_header_and_compares_a_seat_s_token():
    for text in ITS_OWN:
        assert set(places(text)) - {SETTINGS} == {RULE}, text


def test_the_schema_s_security_scheme_names_the_rule_s_header():
    from django.conf import settings

    from games.join_guard import SEAT_TOKEN_HEADER

    schemes = settings.SPECTACULAR_SETTINGS["APPEND_COMPONENTS"]["securitySchemes"]
    assert SEAT_TOKEN_HEADER in {scheme.get("name") for scheme in schemes.values()}


def test_the_scan_finds_what_it_looks_for():
    assert RULE in places("def seat_for_join_token")
    assert set(places("seat_for_join_token(")) >= {
        RULE,
        Path("games/events.py"),
        Path("api/sessions/callers.py"),
    }
