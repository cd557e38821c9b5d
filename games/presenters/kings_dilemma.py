"""The King's Dilemma: a readable summary of the Realm (the full view dict below it)."""

from __future__ import annotations

from games.presenters.common import _words, render_value

# ---- The King's Dilemma (a readable summary; the full view dict below it) ----------------

MOMENTUM = {"up": "▲", "down": "▼"}


def _kd_present(view: dict, names: dict[int, dict], result: dict | None) -> dict:
    board = view.get("board") or {}
    vote = view.get("vote") or {}
    houses = []
    for s in view.get("seats") or []:
        i = s.get("seat")
        choice = (vote.get("choice") or [None] * (i + 1))[i] if vote and i is not None else None
        committed = (vote.get("committed") or [0] * (i + 1))[i] if vote and i is not None else 0
        houses.append(
            {
                **names.get(i, {"name": s.get("name"), "hex": "#555"}),
                "house": s.get("house_name") or "",
                "prestige": s.get("prestige", 0),
                "leader": s.get("leader"),
                "moderator": s.get("moderator"),
                "acting": i in (view.get("to_act") or []),
                "vote": f"{str(choice).upper()} {committed}" if choice in ("aye", "nay") else (choice or ""),
            }
        )
    rows = board.get("resource_rows") or 0
    return {
        "phase": _words(view.get("phase", "")),
        "doing": f"Round {view.get('round', 0)}: {_words(view.get('phase', '')).lower()}."
        + (f" King {view['king_name']}." if view.get("king_name") else ""),
        "resources": [
            {
                "name": _words(r),
                "position": v.get("position"),
                "rows": rows,
                "momentum": MOMENTUM.get(v.get("momentum"), ""),
                "percent": int(100 * (v.get("position") or 0) / rows) if rows else 0,
            }
            for r, v in (board.get("resources") or {}).items()
        ],
        "stability": board.get("stability"),
        "stability_spaces": board.get("stability_spaces"),
        "balance": board.get("balance"),
        "pool": view.get("pool") or {},
        "houses": houses,
        "vote": {"aye": vote.get("aye", 0), "nay": vote.get("nay", 0)} if vote else None,
        "card_html": render_value(view.get("card")) if view.get("card") else "",
    }


def _kd_private(view: dict) -> dict | None:
    you = view.get("you")
    return {"html": render_value({k: v for k, v in you.items() if k != "seat"})} if you else None
