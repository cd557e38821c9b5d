"""The King's Dilemma in the game's own words: the Realm, the card's front, the vote, whose turn it
is, each House's choices, the Secret Agendas and the result (reads only the declared view shape,
games.engines.kings_dilemma.player_view: the table's and a seat's views, a seat's ``private``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.engines.kernel.choices import Choice
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
from games.presenters.base import Presenter, SessionFacts, Words, and_join, offered
from games.translation import say_to_reader

MOMENTUM = {"up": "▲", "down": "▼"}
PHASES = {
    "deal": gettext_lazy("Setting up"),
    "draft": gettext_lazy("Secret Agenda draft"),
    "draw": gettext_lazy("Draw and read a card"),
    "voting": gettext_lazy("Vote of the Council"),
    "tie_break": gettext_lazy("Vote Resolution"),
    "leader_choice": gettext_lazy("Vote Resolution"),
    "outcome": gettext_lazy("Dilemma Resolution"),
    "resolution": gettext_lazy("Dilemma Resolution"),
    "end": gettext_lazy("End of the game"),
    "heir": gettext_lazy("End of the game"),
    "over": gettext_lazy("The game is over"),
}
SIDE = {
    "aye": gettext_lazy("AYE"),
    "nay": gettext_lazy("NAY"),
    "gather": gettext_lazy("Passed (gathers Power)"),
    "moderator": gettext_lazy("Passed (Moderator)"),
}
ENDS = {
    "king_died": gettext_lazy("King {king} is dead: the card on the lightning space sealed his fate."),
    "abdicated_top": gettext_lazy("King {king} abdicated: Stability rose to the top of its track."),
    "abdicated_bottom": gettext_lazy("King {king} abdicated: Stability fell to the bottom of its track."),
}
REIGN_OVER = gettext_lazy("The reign is over.")
PARAMS = {
    "power": gettext_lazy("Power"),
    "coins": gettext_lazy("Coins"),
    "side": gettext_lazy("Side"),
    "to": gettext_lazy("To House"),
    "agenda": gettext_lazy("Secret Agenda"),
    "heir": gettext_lazy("Heir"),
}
AGENDAS = {
    "extremist": pgettext_lazy("secret agenda", "Extremist"),
    "opulent": pgettext_lazy("secret agenda", "Opulent"),
    "moderate": pgettext_lazy("secret agenda", "Moderate"),
    "rebel": pgettext_lazy("secret agenda", "Rebel"),
    "opportunist": pgettext_lazy("secret agenda", "Opportunist"),
    "greedy": pgettext_lazy("secret agenda", "Greedy"),
}


def _resource(row: str) -> str:
    return kings_dilemma_forms.resource_name(row)


def _agenda(agenda: str) -> str:
    return str(AGENDAS.get(agenda) or agenda.capitalize())


def _open_agenda(token: Mapping[str, Any]) -> dict:
    """An Open Agenda token's words (the engine's), said in the reader's language."""
    words = open_agenda_words(token)
    return {key: say_to_reader(value) if isinstance(value, str) else value for key, value in words.items()}


def agenda_words(agenda: str) -> dict:
    """A Secret Agenda and what it scores, from the data file (rulebook "Secret Agenda cards")."""
    card = DEFAULT_TRACKS["secret_agendas"].get(agenda, {})
    if card.get("resource") == "distance":
        goal = _("Resource Goal: the distance between the highest and the lowest Resource (both rows count).")
    else:
        zones = and_join(
            [_("rows {low}–{high}").format(low=low, high=high) for low, high in card.get("zones", [])]
        )
        points = ", ".join(f"{n} → {p}" for n, p in enumerate(card.get("resource", [])))
        goal = _("Resource Goal: Resources in {zones} (markers inside → points: {points}).").format(
            zones=zones, points=points
        )
    coins = card.get("coins", [])
    places = (_("1st most Coins {points}"), _("2nd most Coins {points}"), _("3rd most Coins {points}"))
    money = _("Money: {places}.").format(
        places=", ".join(place.format(points=p) for place, p in zip(places, coins, strict=False))
    )
    extra = " " + _("The Rebel gains 1 Crave if the King abdicates.") if card.get("abdication_crave") else ""
    return {"name": _agenda(agenda), "goal": goal, "money": money + extra}


HOW_MANY = (
    pgettext_lazy("how many Resources", "none"),
    pgettext_lazy("how many Resources", "one"),
    pgettext_lazy("how many Resources", "two"),
    pgettext_lazy("how many Resources", "three"),
    pgettext_lazy("how many Resources", "four"),
    pgettext_lazy("how many Resources", "all five"),
)


def _agenda_money(coins: list[int]) -> str:
    """ "Most Coins 6 points, second 4, third 2": the first count with its noun, the rest bare."""
    said = []
    for k, points in enumerate(coins[:3]):
        if k == 0:
            said.append(ngettext("Most Coins {n} point", "Most Coins {n} points", points).format(n=points))
        elif k == 1:
            said.append(_("second {n}").format(n=points))
        else:
            said.append(_("third {n}").format(n=points))
    return ", ".join(said)


def agenda_short(agenda: str) -> str:
    """A Secret Agenda on a draft button, in two short sentences (not a code such as "Opulent: rows
    9-17 -> 0/4/7/10/14/15 · Coins 6/4/2"): what its Resources score, then its Coins."""
    card = DEFAULT_TRACKS["secret_agendas"].get(agenda, {})
    money = _agenda_money(list(card.get("coins", [])))
    if card.get("resource") == "distance":
        goal = _("scores the distance between the highest and the lowest Resource, in points")
    else:
        zones = (" " + pgettext("between two choices", "or") + " ").join(
            _("{low} to {high}").format(low=low, high=high) for low, high in card.get("zones", [])
        )
        scored = [(n, p) for n, p in enumerate(card.get("resource", [])) if n or p]
        scores = [
            ngettext("{n} point for {how}", "{n} points for {how}", p).format(n=p, how=HOW_MANY[n])
            if not said
            else _("{n} for {how}").format(n=p, how=HOW_MANY[n])
            for said, (n, p) in enumerate(scored)
        ]
        goal = _("Resources in rows {zones} score {scores}").format(zones=zones, scores=", ".join(scores))
    return _("{agenda}: {goal}. {money}.").format(agenda=_agenda(agenda), goal=goal, money=money)


def _tokens(front_side: FrontSide) -> list[str]:
    words = [
        (_("{resource} ▲ up") if d == "up" else _("{resource} ▼ down")).format(resource=_resource(row))
        for row, d in front_side["resources"]
    ]
    if front_side["sticker"] == "positive":
        words.append(_("Positive Chronicle sticker"))
    elif front_side["sticker"]:
        words.append(_("Negative Chronicle sticker"))
    return words or [_("no token shown")]


def _outcome_words(outcome: Outcome | None) -> list[str]:
    if not outcome:
        return []
    words = [f"{_resource(str(row))} {amount:+d}" for row, amount in outcome["resources"]]
    sticker = outcome["sticker"]
    if sticker:
        said = (
            _("Positive Chronicle sticker {number} on the {resource} row")
            if sticker["positive"]
            else _("Negative Chronicle sticker {number} on the {resource} row")
        )
        words.append(said.format(number=sticker["number"], resource=_resource(sticker["row"])))
    if outcome["envelope"] is not None:
        words.append(_("Envelope {number}").format(number=f"{outcome['envelope']:02d}"))
    if outcome["lightning"]:
        words.append(_("the lightning on the back"))
    if outcome["note"]:
        words.append(say_to_reader(outcome["note"]))
    return words


def _name(view: KingsDilemmaView, names: Mapping[int, dict], index: int | None) -> str:
    if index is None:
        return _("the table")
    info = names.get(index)
    return info["name"] if info else view["seats"][index]["name"]


def waiting_sentence(view: KingsDilemmaView, names: dict[int, dict]) -> str:
    """Who must act, in words ("Waiting for House Solad to vote")."""
    acting = view["to_act"]
    if not acting:
        return ""
    who = _name(view, names, acting[0])
    phase = view["phase"]
    if phase == "voting":
        voted = view["vote"]["choice"][acting[0]] if view["vote"] and acting[0] is not None else None
        phase = "voting_more" if voted in ("aye", "nay") else "voting"
    return str(WAITING.get(phase, WAITING_DEFAULT)).format(who=who)


# Whole sentences, so a translation may put the name where its grammar wants it.
WAITING = {
    "draft": gettext_lazy("Waiting for {who} to choose a Secret Agenda."),
    "voting": gettext_lazy("Waiting for {who} to vote."),
    "voting_more": gettext_lazy("Waiting for {who} to add Power or stay."),
    "tie_break": gettext_lazy("Waiting for {who} to decide the winning side (the Moderator)."),
    "leader_choice": gettext_lazy("Waiting for {who} to give the Leader token (the Moderator)."),
    "heir": gettext_lazy("Waiting for {who} to choose who marries into the royal line (the Moderator)."),
    "deal": gettext_lazy("Waiting for {who} to begin the Secret Agenda draft."),
    "draw": gettext_lazy("Waiting for {who} to draw a Dilemma card and read its front."),
    "outcome": gettext_lazy(
        "Waiting for {who} to turn the card over and read the outcome of the winning side."
    ),
    "resolution": gettext_lazy("Waiting for {who} to apply any printed effect and place the card."),
    "end": gettext_lazy("Waiting for {who} to reveal the Secret Agendas and score."),
}
WAITING_DEFAULT = gettext_lazy("Waiting for {who} to go on.")


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
                "open_agendas": [_open_agenda(t) for t in s["open_agendas"]],
                "leader": s["leader"],
                "moderator": s["moderator"],
                "acting": i in view["to_act"],
                "vote": (
                    f"{SIDE[choice]} {committed}"
                    if choice in ("aye", "nay")
                    else str(SIDE.get(choice or "", ""))
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
                "agenda": _agenda(seat["secret_agenda"]),
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
            ties.append(
                ngettext(
                    "{names} are tied on {n} point and share a position.",
                    "{names} are tied on {n} points and share a position.",
                    total,
                ).format(names=and_join(tied), n=total)
            )
    if len(result["winners"]) > 1:
        ties.append(
            _(
                "The winners share the victory; the Moderator chose {heir} to marry into the royal line."
            ).format(heir=_name(view, names, result["heir"]))
        )
    lasts = [r["name"] for r in rows if r["last"]]
    if lasts and len(lasts) < len(rows):
        ties.append(
            _("Last: {names} (the Last row of the Prestige and Crave table).").format(names=", ".join(lasts))
        )
    return {
        "reign": _reign(result),
        "winner": and_join([_name(view, names, w) for w in result["winners"]]),
        "rows": rows,
        "ties": ties,
    }


def _reign(result: dict) -> str:
    """How the reign ended ("King Aldric abdicated: ...")."""
    king = result["king_name"] or _("the King")
    return str(ENDS.get(result["end"], REIGN_OVER)).format(king=king)


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
        if kind == "vote":
            return _("VOTE {side}").format(side=SIDE[value])
        return _("{side} wins").format(side=SIDE[value])
    if name == "agenda":
        return agenda_short(value)
    if kind == "give_coins" and name == "to":
        return _("Give to {name}").format(name=_name(view, names, value))
    if name in ("to", "heir"):
        return _name(view, names, value)
    return None


def kings_dilemma_words(view: KingsDilemmaView, names: dict[int, dict], choices: list[Choice]) -> Words:
    words = Words(names)
    words.param_labels.update({key: str(label) for key, label in PARAMS.items()})
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
        "time_counter_lightning": ngettext(
            "{n} card on the lightning space", "{n} cards on the lightning space", piled
        ).format(n=piled)
        if piled
        else "",
    }


class KingsDilemmaPresenter(Presenter[KingsDilemmaView]):
    template_folder = "games/kings_dilemma"

    def present(self, view: KingsDilemmaView, names: dict[int, dict], result: dict | None) -> dict:
        board = view["board"]
        rows = board["resource_rows"]
        vote = view["vote"]
        last = view["last_vote"]
        return {
            "phase": str(PHASES.get(view["phase"], view["phase"].capitalize())),
            "doing": _("Round {round}: {phase}.").format(
                round=view["round"], phase=str(PHASES.get(view["phase"], "")).lower()
            ),
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
            "winning_side": str(SIDE.get(view["winning_side"] or "", "")),
            "outcome": _outcome_words(view["outcome"]),
            "last_vote": {"aye": last["aye"], "nay": last["nay"], "side": str(SIDE[last["side"]])}
            if last
            else None,
            "result": result_words(view, names, result) if result else None,
            # What the last action did, one line per consequence (the banner; the log's label too).
            "news": [say_to_reader(line) for line in view["news"]],
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
            "open_agendas": [_open_agenda(t) for t in view["seats"][view["you"]]["open_agendas"]],
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
        return seat_names[index] if isinstance(index, int) and 0 <= index < len(seat_names) else _("nobody")

    stickers = [
        (
            _("Chronicle sticker {number} (Positive, {resource} row), signed by {who}")
            if s["positive"]
            else _("Chronicle sticker {number} (Negative, {resource} row), signed by {who}")
        ).format(number=s["number"], resource=_resource(s["row"]), who=who(s["signer"]))
        for s in result["stickers"]
    ]
    envelopes = [
        _("Envelope {number}, opened by {who}").format(number=f"{e['number']:02d}", who=who(e["opened_by"]))
        for e in result["envelopes"]
    ]
    awards = [
        ngettext(
            "{who}: {n} point, Prestige +{prestige}, Crave +{crave}",
            "{who}: {n} points, Prestige +{prestige}, Crave +{crave}",
            row["total"],
        ).format(who=who(i), n=row["total"], prestige=row["prestige_award"], crave=row["crave_award"])
        for i, row in enumerate(result["seats"])
    ]
    trash = ", ".join(str(n) for n in result["resolved_dilemmas"]) or _("none")
    return {
        "reign": _reign(result),
        "stickers": stickers,
        "envelopes": envelopes,
        "awards": awards,
        "trash": trash,
    }
