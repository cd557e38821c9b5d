"""Game Setup (rulebook steps 1-9 with the legacy setup of the campaign), the deal and the Secret Agenda
draft, views and labels."""

import json

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import ALWAYS
from games.engines.kings_dilemma import messages as msg
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.setup import MAX_NAME
from tests.unit.contract import described
from tests.unit.kings_dilemma.builders import act, card, config, drafted, draw


def setup_error(cfg) -> str:
    with pytest.raises(RuleError) as error:
        RULES.setup(cfg, 1)
    return error.value.message


class RulesObjectTests:
    def test_the_registry_hands_out_the_rules(self):
        rules = get_game("kings_dilemma")
        assert rules is RULES
        assert (rules.slug, rules.name, rules.min_seats, rules.max_seats) == (
            "kings_dilemma",
            "The King's Dilemma",
            3,
            5,
        )

    def test_revealing_and_binding_actions_cannot_be_undone(self):
        """The deal and each Secret Agenda chosen (step 6: the deck goes to the next player), the
        Dilemma card drawn ('1. Draw and Read a Card'), its back turned over on the winning side and
        the scoring (every Secret Agenda) show what was hidden; Coins given are binding."""
        for kind in ("deal", "choose_secret_agenda", "draw_dilemma", "read_outcome", "score"):
            assert RULES.revealing[kind] is ALWAYS
        assert RULES.not_undoable == {"give_coins"}
        before = drafted()
        the_card = card(12)
        drawn = draw(before, the_card)
        assert not RULES.undoable(before, {"type": "draw_dilemma", "seat": None}, drawn)
        vote = {"type": "vote", "seat": drawn["vote"]["turn"], "side": "aye", "power": 1}
        assert RULES.undoable(drawn, vote, RULES.apply(drawn, vote))


class SetupTests:
    def test_the_realm_board_is_set_up(self):
        state = RULES.setup(config(4), 3)
        assert all(m["position"] == 9 and not m["marker"] for m in state["resources"].values())
        assert {m["momentum"] for m in state["resources"].values()} <= {"up", "down"}
        assert state["stability"] == 9
        assert state["balance"] == 3
        assert state["pool"] == {"power": 65 - 3 - 4 * 8, "coins": 72 - 4 * 10}
        assert state["phase"] == "deal"
        assert state["removed_agenda"] is None
        assert RULES.choices(state, None) == [{"type": "deal", "seat": None, "params": {}}]
        assert all(RULES.choices(state, s) == [] for s in range(4))

    def test_momentum_sides_are_random_but_replay(self):
        sides = {
            tuple(m["momentum"] for m in RULES.setup(config(), seed)["resources"].values())
            for seed in range(20)
        }
        assert len(sides) > 1
        assert RULES.setup(config(), 5) == RULES.setup(config(), 5)

    def test_first_game_tokens_follow_house_numbers(self):
        """docs/rules-decisions.md 'First game ties': all Prestige 0, the highest House number leads, the lowest moderates."""
        cfg = config()
        for seat, number in zip(cfg["seats"], [4, 9, 2], strict=True):
            seat["house_number"] = number
        state = RULES.setup(cfg, 1)
        assert (state["leader"], state["moderator"]) == (1, 2)

    def test_the_campaign_s_tokens_and_stock_are_used(self):
        cfg = config(leader=2, moderator=0, power=[6, 9, 0], coins=[12, 10, 10])
        state = RULES.setup(cfg, 1)
        assert (state["leader"], state["moderator"]) == (2, 0)
        assert [s["power"] for s in state["seats"]] == [6, 9, 0]
        assert state["pool"] == {"power": 65 - 3 - 15, "coins": 72 - 32}

    def test_tracks_can_be_overridden(self):
        state = RULES.setup(
            config(tracks={"time_counter": {"spaces": 12}, "stability_track": {"spaces": 21, "middle": 11}}),
            1,
        )
        assert state["tracks"]["time_counter"] == {"spaces": 12, "king_death_cards": 5}
        assert state["stability"] == 11

    @pytest.mark.parametrize(
        ("cfg", "message"),
        [
            ("seats", msg.CONFIG_FORMAT),
            ({"seats": [{"name": "A"}, {"name": "B"}]}, msg.SEAT_COUNT),
            ({"seats": ["A", "B", "C"]}, msg.SEAT_FORMAT),
            ({"seats": [{"name": " "}, {"name": "B"}, {"name": "C"}]}, msg.SEAT_NAME.format(most=MAX_NAME)),
            (
                {"seats": [{"name": "A", "power": 66}, {"name": "B"}, {"name": "C"}]},
                msg.SEAT_NUMBER.format(name="A", field="power", low=0, high=65),
            ),
            (
                {"seats": [{"name": "A", "coins": 10**6}, {"name": "B"}, {"name": "C"}]},
                msg.SEAT_NUMBER.format(name="A", field="coins", low=0, high=72),
            ),
            (
                {"seats": [{"name": "A", "house_number": 13}, {"name": "B"}, {"name": "C"}]},
                msg.SEAT_NUMBER.format(name="A", field="house number", low=1, high=12),
            ),
            (
                {"seats": [{"name": "A", "power": -1}, {"name": "B"}, {"name": "C"}]},
                msg.SEAT_NUMBER.format(name="A", field="power", low=0, high=65),
            ),
            (
                {"seats": [{"name": "A", "house_number": 2}, {"name": "B"}, {"name": "C"}]},
                msg.HOUSE_NUMBER_TWICE.format(number=2),
            ),
            (
                {
                    "seats": [
                        {"name": "A", "open_agendas": [{"row": "gold", "positive": True}]},
                        {"name": "B"},
                        {"name": "C"},
                    ]
                },
                msg.OPEN_AGENDA_FORMAT,
            ),
            (
                {
                    "seats": [
                        {
                            "name": "A",
                            "open_agendas": [
                                {"row": r, "positive": True} for r in ("wealth", "morale", "welfare")
                            ],
                        },
                        {"name": "B"},
                        {"name": "C"},
                    ]
                },
                msg.OPEN_AGENDA_LIMIT,
            ),
            (
                {
                    "seats": [
                        {"name": "A", "open_agendas": [{"row": "wealth", "positive": True}]},
                        {"name": "B", "open_agendas": [{"row": "wealth", "positive": True}]},
                        {"name": "C"},
                    ]
                },
                msg.OPEN_AGENDA_TWICE.format(row="Wealth", sign="Positive"),
            ),
            ({**config(), "resources": {"gold": 1}}, msg.RESOURCES_FORMAT.format(rows=17)),
            ({**config(), "resources": {"wealth": 10**9}}, msg.RESOURCES_FORMAT.format(rows=17)),
            ({**config(), "leader": 3}, msg.TOKEN_SEAT.format(token="Leader", top=2)),
            ({**config(), "dilemma_deck": [0]}, msg.DECK_FORMAT.format(top=999)),
            ({**config(), "dilemma_deck": [10**9]}, msg.DECK_FORMAT.format(top=999)),
            ({**config(), "known_cards": [1]}, msg.KNOWN_CARDS_FORMAT),
            ({**config(), "king_name": 5}, msg.KING_NAME.format(most=MAX_NAME)),
            (
                {**config(), "tracks": {"time_counter": {"spaces": 0}}},
                msg.TRACKS_FORMAT.format(what="time_counter", why="spaces and king_death_cards of 1 to 30"),
            ),
            (
                {**config(), "tracks": {"resource_track": {"rows": 200000}}},
                msg.TRACKS_FORMAT.format(
                    what="resource_track", why="rows (3 to 40) and a centre row between 1 and rows"
                ),
            ),
            ({**config(), "mystery_stickers": ["Q"]}, msg.MYSTERY_LETTER),
        ],
    )
    def test_config_errors(self, cfg, message):
        assert setup_error(cfg) == message


class DraftTests:
    """Setup step 6 and docs/rules-decisions.md 'Secret Agenda draft'."""

    def draft_config(self):
        cfg = config(4)
        for seat, (prestige, number) in zip(cfg["seats"], [(5, 1), (2, 7), (2, 3), (9, 2)], strict=True):
            seat["prestige"], seat["house_number"] = prestige, number
        return cfg

    def test_the_deal_removes_one_card_and_the_lowest_prestige_chooses_first(self):
        state = act(RULES.setup(self.draft_config(), 1), "deal", None)
        assert state["draft"]["order"] == [2, 1, 0, 3]  # Prestige 2 (House 3), 2 (House 7), 5, 9
        offer = state["seats"][2]["draft_offer"]
        assert len(offer) == 5 and state["removed_agenda"] not in offer
        assert RULES.choices(state, 2) == [
            {
                "type": "choose_secret_agenda",
                "seat": 2,
                "params": {"agenda": {"kind": "pick", "options": offer}},
            }
        ]
        assert RULES.choices(state, 1) == []
        with pytest.raises(RuleError) as error:
            act(state, "choose_secret_agenda", 1, agenda=offer[0])
        assert error.value.message == msg.NOT_YOUR_TURN.format(name="Chloe", what="choose a Secret Agenda")
        with pytest.raises(RuleError) as error:
            act(state, "choose_secret_agenda", 2, agenda=state["removed_agenda"])
        assert error.value.message == msg.AGENDA_NOT_OFFERED

    def test_each_seat_sees_only_its_offer_and_its_choice(self):
        state = act(RULES.setup(self.draft_config(), 1), "deal", None)
        first = state["seats"][2]["draft_offer"]
        state = act(state, "choose_secret_agenda", 2, agenda=first[1])
        assert RULES.view(state, 2)["private"]["secret_agenda"] == first[1]
        assert RULES.view(state, 2)["private"]["draft_offer"] == first
        assert RULES.view(state, 1)["private"]["draft_offer"] == [a for a in first if a != first[1]]
        assert RULES.view(state, 0)["private"]["draft_offer"] is None
        for seat in (None, 0, 1, 3):
            assert first[1] not in json.dumps(RULES.view(state, seat)) or seat == 1
        table = json.dumps(RULES.view(state, None))
        assert not any(agenda in table for agenda in first + [state["removed_agenda"]])

    def test_the_removed_card_is_never_shown(self):
        state = drafted(config(5))
        for seat in (None, *range(5)):
            assert state["removed_agenda"] not in json.dumps(RULES.view(state, seat))

    def test_the_deal_is_the_table_s_and_happens_once(self):
        state = RULES.setup(config(), 1)
        with pytest.raises(RuleError) as error:
            act(state, "deal", 0)
        assert error.value.message == msg.TABLE_ONLY.format(what="deal the Secret Agendas")
        state = act(state, "deal", None)
        with pytest.raises(RuleError) as error:
            act(state, "deal", None)
        assert error.value.message == msg.NOT_NOW.format(what="deal the Secret Agendas")
        with pytest.raises(RuleError) as error:
            act(state, "choose_secret_agenda", None, agenda="rebel")
        assert error.value.message == msg.SEAT_ONLY.format(what="choose a Secret Agenda")

    def test_after_the_draft_the_table_draws_the_first_card(self):
        state = drafted()
        assert state["phase"] == "draw"
        assert all(s["secret_agenda"] for s in state["seats"])
        assert len({s["secret_agenda"] for s in state["seats"]}) == 3


class ViewTests:
    def test_the_table_view_hides_screens_and_the_seat_view_adds_its_own(self):
        state = drafted()
        table = RULES.view(state, None)
        assert table["you"] is None and "private" not in table
        assert "power" not in table["seats"][0] and "coins" not in table["seats"][0]
        assert set(table["board"]) >= {"resources", "stability", "time_counter", "balance", "event_cards"}
        assert RULES.view(state, 1)["you"] == 1
        mine = RULES.view(state, 1)["private"]
        assert mine == {
            "power": 8,
            "coins": 10,
            "pass_coin": 0,
            "secret_agenda": state["seats"][1]["secret_agenda"],
            "draft_offer": state["seats"][1]["draft_offer"],
        }
        assert "seed" not in json.dumps(table)

    def test_the_vote_in_progress_is_public(self):
        from tests.unit.kings_dilemma.builders import voting

        state = act(voting(config(leader=0, moderator=2)), "vote", 0, side="aye", power=3)
        assert RULES.view(state, None)["to_act"] == [1]
        vote = RULES.view(state, None)["vote"]
        assert vote["committed"] == [3, 0, 0] and vote["choice"] == ["aye", None, None]
        assert vote["aye"] == 3 and vote["turn"] == 1


class DescribeTests:
    def test_labels_name_the_houses_and_keep_secrets(self):
        from tests.unit.kings_dilemma.builders import voting

        state = voting(config(leader=0, moderator=2))
        assert described(RULES, state, {"type": "vote", "seat": 0, "side": "aye", "power": 3}) == (
            "Anna voted AYE with 3 Power."
        )
        assert described(RULES, state, {"type": "give_coins", "seat": 2, "to": 1, "coins": 5}) == (
            "Chloe gave 5 Coins to Ben."
        )
        assert described(RULES, state, {"type": "choose_secret_agenda", "seat": 1, "agenda": "rebel"}) == (
            "Ben chose a Secret Agenda."
        )
        assert (
            described(
                RULES,
                state,
                {"type": "adjust", "seat": None, "target": 1, "what": "coins", "amount": -2, "label": "Tax"},
            )
            # What was done, then one line per consequence (issue 26).
            == "The table took 2 Coins from Ben (Tax).\n"
            + msg.NEWS_COINS_TAKEN.format(name="Ben", amount=2, s="s")
        )
        assert described(RULES, state, {"type": "nonsense", "seat": 9}) == "nonsense"
