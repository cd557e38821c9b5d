"""The King's Dilemma in the game's own words: the Realm, the card's front, the vote, whose turn it
is, each House's choices, the Secret Agendas and the result (reads only the declared view shape,
games.engines.kings_dilemma.player_view: the table's and a seat's views, a seat's ``private``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from games.engines.kernel.choices import Choice
from games.engines.kernel.words import count
from games.engines.kings_dilemma.data import DEFAULT_TRACKS
from games.engines.kings_dilemma.player_view import (
    FrontSide,
    KingsDilemmaSeatView,
    KingsDilemmaView,
    Outcome,
)
from games.engines.kings_dilemma.realm import on_lightning, time_counter_filled
from games.engines.kings_dilemma.scoring import open_agenda_words
from games.presenters import kings_dilemma_forms
from games.presenters.base import Presenter, SessionFacts, Words, offered

MOMENTUM = {"up": "▲", "down": "▼"}
PHASES = {
    "deal": "Setting up",
    "draft": "Secret Agenda draft",
    "draw": "Draw and read a card",
    "voting": "Vote of the Council",
    "tie_break": "Vote Resolution",
    "leader_choice": "Vote Resolution",
    "outcome": "Dilemma Resolution",
    "resolution": "Dilemma Resolution",
    "end": "End of the game",
    "heir": "End of the game",
    "over": "The game is over",
}
SIDE = {"aye": "AYE", "nay": "NAY", "gather": "Passed (gathers Power)", "moderator": "Passed (Moderator)"}
ENDS = {
    "king_died": "King {king} is dead: the card on the lightning space sealed his fate.",
    "abdicated_top": "King {king} abdicated: Stability rose to the top of its track.",
    "abdicated_bottom": "King {king} abdicated: Stability fell to the bottom of its track.",
}
PARAMS = {
    "power": "Power",
    "coins": "Coins",
    "side": "Side",
    "to": "To House",
    "agenda": "Secret Agenda",
    "heir": "Heir",
}


def _resource(row: str) -> str:
    return row.capitalize()


def agenda_words(agenda: str) -> dict:
    """A Secret Agenda and what it scores, from the data file (rulebook "Secret Agenda cards")."""
    card = DEFAULT_TRACKS["secret_agendas"].get(agenda, {})
    if card.get("resource") == "distance":
        goal = "Resource Goal: the distance between the highest and the lowest Resource (both rows count)."
    else:
        zones = " and ".join(f"rows {low}–{high}" for low, high in card.get("zones", []))
        points = ", ".join(f"{n} → {p}" for n, p in enumerate(card.get("resource", [])))
        goal = f"Resource Goal: Resources in {zones} (markers inside → points: {points})."
    coins = card.get("coins", [])
    money = "Money: " + ", ".join(
        f"{place} most Coins {p}" for place, p in zip(("1st", "2nd", "3rd"), coins, strict=False)
    )
    extra = " The Rebel gains 1 Crave if the King abdicates." if card.get("abdication_crave") else ""
    return {"name": agenda.capitalize(), "goal": goal, "money": money + "." + extra}


HOW_MANY = ("none", "one", "two", "three", "four", "all five")


def agenda_short(agenda: str) -> str:
    """A Secret Agenda on a draft button, in two short sentences (not a code such as "Opulent: rows
    9-17 -> 0/4/7/10/14/15 · Coins 6/4/2"): what its Resources score, then its Coins."""
    card = DEFAULT_TRACKS["secret_agendas"].get(agenda, {})
    coins = card.get("coins", [])
    places = ("Most Coins", "second", "third")
    money = ", ".join(
        f"{place} {count(p, 'point') if k == 0 else p}"
        for k, (place, p) in enumerate(zip(places, coins, strict=False))
    )
    if card.get("resource") == "distance":
        goal = "scores the distance between the highest and the lowest Resource, in points"
    else:
        zones = " or ".join(f"{low} to {high}" for low, high in card.get("zones", []))
        scores = [
            f"{count(p, 'point') if not said else p} for {HOW_MANY[n]}"
            for said, (n, p) in enumerate((n, p) for n, p in enumerate(card.get("resource", [])) if n or p)
        ]
        goal = f"Resources in rows {zones} score {', '.join(scores)}"
    return f"{agenda.capitalize()}: {goal}. {money}."


def _tokens(front_side: FrontSide) -> list[str]:
    words = [f"{_resource(row)} {'▲ up' if d == 'up' else '▼ down'}" for row, d in front_side["resources"]]
    if front_side["sticker"]:
        words.append(f"{front_side['sticker'].capitalize()} Chronicle sticker")
    return words or ["no token shown"]


def _outcome_words(outcome: Outcome | None) -> list[str]:
    if not outcome:
        return []
    words = [f"{_resource(str(row))} {amount:+d}" for row, amount in outcome["resources"]]
    sticker = outcome["sticker"]
    if sticker:
        kind = "Positive" if sticker["positive"] else "Negative"
        words.append(f"{kind} Chronicle sticker {sticker['number']} on the {_resource(sticker['row'])} row")
    if outcome["envelope"] is not None:
        words.append(f"Envelope {outcome['envelope']:02d}")
    if outcome["lightning"]:
        words.append("the lightning on the back")
    if outcome["note"]:
        words.append(outcome["note"])
    return words


def _name(view: KingsDilemmaView, names: Mapping[int, dict], index: int | None) -> str:
    if index is None:
        return "the table"
    info = names.get(index)
    return info["name"] if info else view["seats"][index]["name"]


def waiting_sentence(view: KingsDilemmaView, names: dict[int, dict]) -> str:
    """Who must act, in words ("Waiting for House Solad to vote")."""
    acting = view["to_act"]
    if not acting:
        return ""
    who = _name(view, names, acting[0])
    phase = view["phase"]
    if phase == "draft":
        what = "choose a Secret Agenda"
    elif phase == "voting":
        voted = view["vote"]["choice"][acting[0]] if view["vote"] and acting[0] is not None else None
        what = "add Power or stay" if voted in ("aye", "nay") else "vote"
    elif phase == "tie_break":
        what = "decide the winning side (the Moderator)"
    elif phase == "leader_choice":
        what = "give the Leader token (the Moderator)"
    elif phase == "heir":
        what = "choose who marries into the royal line (the Moderator)"
    else:
        what = {
            "deal": "begin the Secret Agenda draft",
            "draw": "draw a Dilemma card and read its front",
            "outcome": "turn the card over and read the outcome of the winning side",
            "resolution": "apply any printed effect and place the card",
            "end": "reveal the Secret Agendas and score",
        }.get(phase, "go on")
    return f"Waiting for {who} to {what}."


def _houses(view: KingsDilemmaView, names: dict[int, dict]) -> list[dict]:
    vote = view["vote"]
    houses = []
    for s in view["seats"]:
        i = s["index"]
        choice = vote["choice"][i] if vote else None
        committed = vote["committed"][i] if vote else 0
        info = names.get(i, {"name": s["name"], "hex": "#555"})
        houses.append(
            {
                **info,
                "house": s["house_name"] if s["house_name"] and s["house_name"] != info["name"] else "",
                "prestige": s["prestige"],
                # In front of the House screen, for all to see (rulebook "Assign Open Agendas").
                "open_agendas": [open_agenda_words(t) for t in s["open_agendas"]],
                "leader": s["leader"],
                "moderator": s["moderator"],
                "acting": i in view["to_act"],
                "vote": (
                    f"{SIDE[choice]} {committed}" if choice in ("aye", "nay") else SIDE.get(choice or "", "")
                ),
            }
        )
    return houses


def result_words(view: KingsDilemmaView, names: dict[int, dict], result: dict) -> dict:
    """The end of the game in words: how the reign ended, the ranking, points by kind, awards, ties."""
    rows = []
    for index, seat in enumerate(result["seats"]):
        rows.append(
            {
                "position": seat["position"],
                "name": _name(view, names, index),
                "hex": names.get(index, {}).get("hex", "#555"),
                "agenda": seat["secret_agenda"].capitalize(),
                "agenda_points": seat["agenda_points"],
                "open_agenda_points": seat["open_agenda_points"],
                "coins_points": seat["coins_points"],
                "power_points": seat["power_points"],
                "total": seat["total"],
                "prestige": seat["prestige_award"],
                "crave": seat["crave_award"],
                "last": seat["last"],
            }
        )
    rows.sort(key=lambda r: r["position"])
    ties = []
    totals = [r["total"] for r in rows]
    for total in sorted(set(totals), reverse=True):
        tied = [r["name"] for r in rows if r["total"] == total]
        if len(tied) > 1:
            ties.append(f"{' and '.join(tied)} are tied on {count(total, 'point')} and share a position.")
    if len(result["winners"]) > 1:
        ties.append(
            f"The winners share the victory; the Moderator chose {_name(view, names, result['heir'])} "
            "to marry into the royal line."
        )
    lasts = [r["name"] for r in rows if r["last"]]
    if lasts and len(lasts) < len(rows):
        ties.append(f"Last: {', '.join(lasts)} (the Last row of the Prestige and Crave table).")
    king = result["king_name"] or "the King"
    return {
        "reign": ENDS.get(result["end"], "The reign is over.").format(king=king),
        "winner": " and ".join(_name(view, names, w) for w in result["winners"]),
        "rows": rows,
        "ties": ties,
    }


def _card(view: KingsDilemmaView) -> dict | None:
    card = view["card"]
    if not card:
        return None
    return {
        "number": card["number"],
        "title": card["title"],
        "question": card["question"],
        "aye": _tokens(card["front"]["aye"]),
        "nay": _tokens(card["front"]["nay"]),
    }


def _option_words(
    view: KingsDilemmaView, names: dict[int, dict], kind: str, name: str, value: Any
) -> str | None:
    """An option of a choice in the game's words (None: the default words)."""
    if name == "side":
        return f"VOTE {SIDE[value]}" if kind == "vote" else f"{SIDE[value]} wins"
    if name == "agenda":
        return agenda_short(value)
    if kind == "give_coins" and name == "to":
        return f"Give to {_name(view, names, value)}"
    if name in ("to", "heir"):
        return _name(view, names, value)
    return None


def kings_dilemma_words(view: KingsDilemmaView, names: dict[int, dict], choices: list[Choice]) -> Words:
    words = Words(names)
    words.param_labels.update(PARAMS)
    for choice, name, value in offered(choices):
        text = _option_words(view, names, choice["type"], name, value)
        if text is not None:
            words.option_is(choice, name, value, text)
    return words


def _time_counter(board: Any) -> dict:
    """The Time Counter as the log words it ("10/10"): the cards past the last space lie on the
    lightning space, said apart ("2 cards on the lightning space"), never as "11/10"."""
    cards, spaces = len(board["time_counter"]), board["time_counter_spaces"]
    piled = on_lightning(cards, spaces)
    return {
        "time_counter": time_counter_filled(cards, spaces),
        "time_counter_spaces": spaces,
        "time_counter_lightning": f"{count(piled, 'card')} on the lightning space" if piled else "",
    }


class KingsDilemmaPresenter(Presenter[KingsDilemmaView]):
    template_folder = "games/kings_dilemma"

    def present(self, view: KingsDilemmaView, names: dict[int, dict], result: dict | None) -> dict:
        board = view["board"]
        rows = board["resource_rows"]
        vote = view["vote"]
        last = view["last_vote"]
        return {
            "phase": PHASES.get(view["phase"], view["phase"].capitalize()),
            "doing": f"Round {view['round']}: {PHASES.get(view['phase'], '').lower()}.",
            "waiting": waiting_sentence(view, names),
            "king": view["king_name"],
            "resources": [
                {
                    "name": _resource(r),
                    "position": v["position"],
                    "rows": rows,
                    "momentum": MOMENTUM.get(v["momentum"], ""),
                    "percent": int(100 * v["position"] / rows) if rows else 0,
                }
                for r, v in board["resources"].items()
            ],
            "stability": board["stability"],
            "stability_spaces": board["stability_spaces"],
            **_time_counter(board),
            "balance": board["balance"],
            "pool": view["pool"],
            "houses": _houses(view, names),
            "vote": {"aye": vote["aye"], "nay": vote["nay"]} if vote else None,
            "card": _card(view),
            "winning_side": SIDE.get(view["winning_side"] or "", ""),
            "outcome": _outcome_words(view["outcome"]),
            "last_vote": {"aye": last["aye"], "nay": last["nay"], "side": SIDE[last["side"]]}
            if last
            else None,
            "result": result_words(view, names, result) if result else None,
            # What the last action did, one line per consequence (the banner; the log's label too).
            "news": list(view["news"]),
        }

    def private(self, view: KingsDilemmaView) -> dict | None:
        """Behind the viewing House's screen (the table's view has no ``private``)."""
        if view["you"] is None:
            return None
        mine = cast(KingsDilemmaSeatView, view)["private"]
        return {
            "power": mine["power"],
            "coins": mine["coins"],
            # 'PASS': the Coin lies on the PASS card until the vote ends (then behind the screen).
            "pass_coin": mine["pass_coin"],
            "agenda": agenda_words(mine["secret_agenda"]) if mine["secret_agenda"] else None,
            "open_agendas": [open_agenda_words(t) for t in view["seats"][view["you"]]["open_agendas"]],
        }

    def words(
        self, view: KingsDilemmaView, names: dict[int, dict], choices: Sequence[Mapping[str, Any]]
    ) -> Words:
        return kings_dilemma_words(view, names, cast(list[Choice], choices))

    # The host types what the physical cards say: those table choices get forms of their own.

    def table_choices(self, choices: list[dict]) -> list[dict]:
        return [a for a in choices if a["type"] not in kings_dilemma_forms.TYPED_TABLE_ACTIONS]

    def table_forms(self, *, facts: SessionFacts, table: dict, bound: dict) -> dict[str, Any]:
        return kings_dilemma_forms.table_forms(facts=facts, table=table, bound=bound)

    def compose_form(self, *, kind: str, data: Any, facts: SessionFacts, table: dict) -> Any | None:
        return kings_dilemma_forms.compose_form(kind=kind, data=data, facts=facts, table=table)


PRESENTER = KingsDilemmaPresenter()


def save_words(result: dict, seat_names: list[str]) -> dict:
    """What "Save your game" will write into the campaign, in words."""

    def who(index: Any) -> str:
        return seat_names[index] if isinstance(index, int) and 0 <= index < len(seat_names) else "nobody"

    stickers = [
        f"Chronicle sticker {s['number']} ({'Positive' if s['positive'] else 'Negative'}, {_resource(s['row'])} row),"
        f" signed by {who(s['signer'])}"
        for s in result["stickers"]
    ]
    envelopes = [f"Envelope {e['number']:02d}, opened by {who(e['opened_by'])}" for e in result["envelopes"]]
    awards = [
        f"{who(i)}: {count(row['total'], 'point')}, Prestige +{row['prestige_award']}, Crave +{row['crave_award']}"
        for i, row in enumerate(result["seats"])
    ]
    trash = ", ".join(str(n) for n in result["resolved_dilemmas"]) or "none"
    return {
        "reign": ENDS.get(result["end"], "The reign is over.").format(king=result["king_name"] or "the King"),
        "stickers": stickers,
        "envelopes": envelopes,
        "awards": awards,
        "trash": trash,
    }
