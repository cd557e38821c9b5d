"""A scripted whole game, from the deal to the King's death, and the coverage of every RuleError message."""

import ast
from pathlib import Path

from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from tests.unit.contract import described
from tests.unit.kings_dilemma.builders import card, coins_total, config, front, outcome, power_total

FOLDER = Path(__file__).parent


def test_a_whole_game_from_the_deal_to_the_king_s_death():
    cfg = config(names=["Valentine", "Martina", "Armin", "Charles"], leader=3, moderator=0)
    known = card(5, aye=outcome(("knowledge", 1)), nay=outcome(("knowledge", -1)))
    cfg["known_cards"] = {"5": known}
    backs = {5: known}
    state = RULES.setup(cfg, 2024)
    log = []

    def do(type_, seat, **fields):
        nonlocal state
        action = {"type": type_, "seat": seat, **fields}
        log.append(described(RULES, state, action))
        state = RULES.apply(state, action)

    do("deal", None)
    while state["phase"] == "draft":
        seat = state["draft"]["order"][state["draft"]["index"]]
        do("choose_secret_agenda", seat, agenda=state["draft"]["remaining"][-1])
    assert state["phase"] == "draw"

    # Small alternating moves keep Stability away from the ends: ten cards reach the lightning space.
    rows = ["influence", "wealth", "morale", "welfare", "knowledge"]
    for number in range(1, 11):
        row = rows[number % 5]
        if number == 5:
            do("draw_dilemma", None, card={"number": 5})
        else:
            sticker = {"number": 40 + number, "row": row, "positive": True} if number == 3 else None
            the_card = card(
                number,
                aye=outcome((row, 1), sticker=sticker),
                nay=outcome((row, -1), envelope=10 + number),  # each Envelope opens once
            )
            backs[number] = the_card
            do("draw_dilemma", None, card=front(the_card))
        side = "aye" if state["stability"] < 9 else "nay"
        voted = False
        while state["phase"] == "voting":
            seat = state["vote"]["turn"]
            if state["vote"]["choice"][seat] is not None:
                do("stay", seat)
            elif not voted and state["seats"][seat]["power"] > 0:
                do("vote", seat, side=side, power=1)
                voted = True
            else:
                do("pass_gather", seat)
        assert state["phase"] == "outcome"
        do("read_outcome", None, outcome={**backs[number][side], "lightning": number == 10})
        assert state["phase"] == "resolution"
        assert state["abdicated"] is None
        do("to_time_counter", None)
        if number < 10:
            assert state["phase"] == "draw"
    assert state["phase"] == "end" and state["end"] == "king_died"
    assert power_total(state) == 65 and coins_total(state) == 72
    do("score", None)
    if state["phase"] == "heir":
        do("choose_heir", state["moderator"], heir=state["heir_candidates"][0])
    assert state["over"]
    result = state["result"]
    assert result["end"] == "king_died" and result["king_name"] == "Harald V"
    assert result["resolved_dilemmas"] == list(range(1, 11))
    assert set(result["cards_met"]) == {str(n) for n in range(1, 11)}
    assert len(result["seats"]) == 4
    assert {s["secret_agenda"] for s in result["seats"]} <= {
        "extremist",
        "opulent",
        "moderate",
        "rebel",
        "opportunist",
        "greedy",
    }
    assert all(
        s["total"] == s["agenda_points"] + s["coins_points"] + s["open_agenda_points"] + s["power_points"]
        for s in result["seats"]
    )
    assert log[0].startswith("The table removed one Secret Agenda")
    assert not any(a in line for line in log for a in ("rebel", "greedy", "opulent", "moderate", "extremist"))
    assert RULES.legal_actions(state, None) == [] and RULES.active_seats(state) == []


def test_every_rule_error_message_is_tested():
    """docs/architecture.md, Conventions: messages are module constants and tests assert them. Each constant of messages.py is
    named by some test in this folder."""
    used = set()
    for path in FOLDER.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "msg"
            ):
                used.add(node.attr)
    constants = {name for name in vars(msg) if name.isupper()}
    assert constants - used == set()
