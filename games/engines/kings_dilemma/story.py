"""The story of one game night, from its log: the setup (config and seed) and each logged action
replayed through ``apply``, in order. Pure and deterministic, like the engine it replays.

``night_story(config, seed, actions)`` returns (seats are indexes into ``houses``)::

    {"king_name": "Harald V",
     "houses": [{"seat": 0, "name": "Anna", "house": 7,
                 "open_agendas": [{"row", "positive", "name", "short", "rule"}]}],  # public all night; words as message data
     "over": True,
     "dilemmas": [DILEMMA, ...],            # in the order they were drawn
     "coins": [{"from": 0, "to": 2, "coins": 3, "dilemma": 12}],   # every gift of the night
     "end": "king_died" | "abdicated_top" | "abdicated_bottom" | None,
     "resources_final": {row: position} | None, "stability_final": n | None,
     "ranking": [RANK, ...] | None,          # only once the night is over (Secret Agendas revealed)
     "winners": [seat], "heir": seat | None}

    DILEMMA = {"round": 1, "number": 12, "title": ..., "question": ...,   # the front, as typed
               "leader": seat, "moderator": seat,        # the tokens when the card was drawn
               "votes": [{"seat": 0, "vote": "aye"|"nay"|"gather"|"moderator"|None, "power": 3}],
               "aye": 5, "nay": 3,                     # Power on each Vote card
               "side": "aye" | "nay" | None,           # None: the night ended before the vote did
               "undecided": None | "tie" | "all_pass", "decided_by": seat | None,
               "carried_by": [seat],                   # the Houses whose Power was on the side chosen
               "resolved_by": seat | None,             # the Leader once the vote ended (signs, opens)
               "moderator_after": seat | None,         # the Moderator once the vote ended
               "leader_given_by": seat | None,         # the Moderator chose among tied biggest voters
               "outcome": OUTCOME | None,              # the back of the side chosen, as typed
               "stickers": [{"number", "row", "positive", "signer"}],
               "envelopes": [{"number", "opened_by", "grand_finale"}],
               "effects": [{"what": "move_resource"|"adjust"|"mystery_sticker", "label", ...}],
               "coins": [{"from", "to", "coins"}],
               "placed": "time_counter" | "event_area" | None,
               "resources": {row: position} | None, "stability": n | None}  # after the card was placed

    RANK = {"seat", "name", "house", "secret_agenda", "agenda_points", "coins_points",
            "open_agenda_points", "power_points", "total", "position", "last"}

Nothing secret leaves before its time: a Secret Agenda appears only in ``ranking``, which exists only
when the game is over (the scoring revealed them); the draft's choices are never read.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

from games.engines.kernel.messages import to_data
from games.engines.kings_dilemma.data import RESOURCES
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.scoring import open_agenda_words
from games.engines.kings_dilemma.turn import VOTING_PHASES

RANK_FIELDS = (
    "secret_agenda",
    "agenda_points",
    "coins_points",
    "open_agenda_points",
    "power_points",
    "total",
    "position",
    "last",
)


def _new_dilemma(state: dict) -> dict:
    card = state["card"]
    return {
        "round": state["round"],
        "number": card["number"],
        "title": card["title"],
        "question": card["question"],
        "leader": state["leader"],
        "moderator": state["moderator"],
        "votes": [],
        "aye": 0,
        "nay": 0,
        "side": None,
        "undecided": None,
        "decided_by": None,
        "carried_by": [],
        "resolved_by": None,
        "moderator_after": None,
        "leader_given_by": None,
        "outcome": None,
        "stickers": [],
        "envelopes": [],
        "effects": [],
        "coins": [],
        "placed": None,
        "resources": None,
        "stability": None,
    }


def _vote_ended(state: dict, dilemma: dict, action: dict) -> None:
    last = state["last_vote"]
    dilemma["votes"] = [
        {"seat": seat, "vote": choice, "power": power}
        for seat, (choice, power) in enumerate(zip(last["choice"], last["committed"], strict=True))
    ]
    dilemma["aye"], dilemma["nay"] = last["aye"], last["nay"]
    dilemma["side"] = last["side"]
    dilemma["undecided"] = last["undecided"]
    dilemma["carried_by"] = [seat for seat, choice in enumerate(last["choice"]) if choice == last["side"]]
    dilemma["resolved_by"] = state["leader"]
    dilemma["moderator_after"] = state["moderator"]
    if action["type"] == "give_leader":
        dilemma["leader_given_by"] = action["seat"]


def _effects(action: dict) -> list[dict]:
    """A hand-applied effect as the story tells it: an effect on several Houses is told House by
    House (the story's shape is the same for one House or several)."""
    kind = action["type"]
    effect = {"what": kind, "label": action.get("label", "").strip()}
    if kind == "move_resource":
        effect.update(row=action["row"], amount=action["amount"])
    elif kind == "adjust":
        targets = action["target"] if isinstance(action["target"], list) else [action["target"]]
        return [{**effect, "target": t, "kind": action["what"], "amount": action["amount"]} for t in targets]
    elif kind == "mystery_sticker":
        effect.update(letter=action["letter"])
    return [effect]


def _tell(
    story: dict, dilemma: dict, action: dict, before_phase: str, state: dict, stickers: int, envelopes: int
) -> None:
    """What one action of a round adds to its Dilemma's story (stickers and envelopes: those the
    state gained, counted from ``stickers`` and ``envelopes``)."""
    kind = action["type"]
    if before_phase in VOTING_PHASES and state["phase"] not in VOTING_PHASES:
        _vote_ended(state, dilemma, action)
        if kind == "break_tie":
            dilemma["decided_by"] = action["seat"]
    if kind == "give_coins":
        gift = {"from": action["seat"], "to": action["to"], "coins": action["coins"]}
        dilemma["coins"].append(gift)
        story["coins"].append({**gift, "dilemma": dilemma["number"]})
    elif kind == "read_outcome":
        # Placed in the same action (``place``), the round is over and the outcome is the card's back.
        read = state["outcome"] or state["cards_met"][str(dilemma["number"])]["back"][dilemma["side"]]
        dilemma["outcome"] = copy.deepcopy(read)
    elif kind in ("move_resource", "adjust", "mystery_sticker"):
        dilemma["effects"].extend(_effects(action))
    for sticker in state["stickers"][stickers:]:
        dilemma["stickers"].append({k: sticker[k] for k in ("number", "row", "positive", "signer")})
    for envelope in state["envelopes"][envelopes:]:
        dilemma["envelopes"].append(
            {
                "number": envelope["number"],
                "opened_by": envelope["opened_by"],
                "grand_finale": bool(envelope.get("grand_finale")),
            }
        )
    placed = kind in ("to_time_counter", "to_event_area")
    if placed or (kind == "read_outcome" and action.get("place") == "time_counter"):
        dilemma["placed"] = "time_counter" if kind == "read_outcome" else kind.removeprefix("to_")
        dilemma["resources"] = {row: state["resources"][row]["position"] for row in RESOURCES}
        dilemma["stability"] = state["stability"]


def replay(config: dict, seed: int, actions: list[dict]) -> Iterator[tuple[dict, str, dict]]:
    """The fold of the log over the setup, one action at a time: yields (action, the phase before
    it, the state after it). The same moves and the same seeded randomness as ``RULES.apply``, on
    one private state instead of a copy per action (a copy of this state costs about a millisecond;
    a night has a hundred actions and a campaign fifty nights). The state yielded is changed by the
    next step: read what you keep. ``tests/unit/kings_dilemma/test_story.py`` checks the fold equals
    ``RULES.apply``'s."""
    state = RULES.setup(config, seed)
    for action in actions:
        before = state["phase"]
        RULES.apply_in_place(state, action)
        yield action, before, state


def night_story(config: dict, seed: int, actions: list[dict]) -> dict:
    """Replay the night and tell it. ``actions`` are the logged payloads (undone ones left out)."""
    checkpoint = story_begin(config, seed)
    story_fold(checkpoint, actions)
    return story_told(checkpoint)


def story_begin(config: dict, seed: int) -> dict:
    """The checkpoint before the first action: ``{"story": the story so far, "state": the state}``.
    A checkpoint is plain JSON data (the Django side keeps one beside a snapshot of the state), so a
    long night is told again from its last checkpoint, not from its setup."""
    state = RULES.setup(config, seed)
    story = {
        "king_name": state["king_name"],
        "houses": [
            {
                "seat": i,
                "name": s["name"],
                "house": s["house"],
                # In front of the House screens all night (rulebook "Assign Open Agendas"), each
                # word kept as its message's data: the story is JSON, said in each reader's language.
                "open_agendas": [
                    {k: to_data(v) for k, v in open_agenda_words(t, state["tracks"]).items()}
                    for t in s["open_agendas"]
                ],
            }
            for i, s in enumerate(state["seats"])
        ],
        "over": False,
        "dilemmas": [],
        "coins": [],
        "end": None,
        "resources_final": None,
        "stability_final": None,
        "ranking": None,
        "winners": [],
        "heir": None,
    }
    return {"story": story, "state": state}


def story_fold(checkpoint: dict, actions: list[dict]) -> dict:
    """Fold more logged actions into ``checkpoint`` (changed in place: the caller's own, e.g. read
    from the database), as ``RULES.apply`` would: the same moves and the same seeded randomness on
    one private state. The Dilemma being told is the story's last one (none before the first draw).
    Returns the checkpoint."""
    story, state = checkpoint["story"], checkpoint["state"]
    dilemma = story["dilemmas"][-1] if story["dilemmas"] else None
    stickers, envelopes = len(state["stickers"]), len(state["envelopes"])
    for action in actions:
        before_phase = state["phase"]
        RULES.apply_in_place(state, action)
        if action["type"] == "draw_dilemma":
            dilemma = _new_dilemma(state)
            story["dilemmas"].append(dilemma)
        elif dilemma is not None:  # the deal and the draft are not told: the Secret Agendas are secret
            _tell(story, dilemma, action, before_phase, state, stickers, envelopes)
        stickers, envelopes = len(state["stickers"]), len(state["envelopes"])
    return checkpoint


def story_told(checkpoint: dict) -> dict:
    """The story of the night at ``checkpoint``: the story so far and, once the game is over, its
    end (a new dict, sharing the Dilemmas told so far with the checkpoint: read it before folding on)."""
    story, state = checkpoint["story"], checkpoint["state"]
    told = {**story, "end": state["end"]}
    if state["over"]:
        result = state["result"]
        told["over"] = True
        told["resources_final"] = dict(result["resources_final"])
        told["stability_final"] = result["stability_final"]
        ranking = [
            {"seat": i, "name": row["name"], "house": row["house"], **{k: row[k] for k in RANK_FIELDS}}
            for i, row in enumerate(result["seats"])
        ]
        told["ranking"] = sorted(ranking, key=lambda r: (r["position"], r["seat"]))
        told["winners"] = list(result["winners"])
        told["heir"] = result["heir"]
    return told


def house_figures(story: dict, seat: int) -> dict:
    """One seat's part of a night: Dilemmas it led (held the Leader token when the vote ended) or
    moderated (held the Moderator token then), votes it won (its Power on the side chosen), Coins."""
    decided = [d for d in story["dilemmas"] if d["side"] is not None]
    return {
        "dilemmas": len(decided),
        "led": sum(1 for d in decided if d["resolved_by"] == seat),
        "moderated": sum(1 for d in decided if d["moderator_after"] == seat),
        "voted": sum(
            1 for d in decided if any(v["seat"] == seat and v["vote"] in ("aye", "nay") for v in d["votes"])
        ),
        "won": sum(1 for d in decided if seat in d["carried_by"]),
        "coins_given": sum(g["coins"] for g in story["coins"] if g["from"] == seat),
        "coins_received": sum(g["coins"] for g in story["coins"] if g["to"] == seat),
    }
