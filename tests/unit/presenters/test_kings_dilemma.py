"""The King's Dilemma presenter alone, without a database: views made by the engine from a seeded game
at each phase, for the table and every seat, turned into what the pages draw (issue 28, item 7)."""

import json
from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from games.engines.kings_dilemma.data import DEFAULT_TRACKS
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.scoring import open_agenda_words
from games.presenters.base import SessionFacts
from games.presenters.kings_dilemma import PHASES, PRESENTER, SIDE, agenda_short, save_words
from games.presenters.kings_dilemma_forms import TYPED_TABLE_ACTIONS, DilemmaCardForm, OutcomeForm, voters_of
from tests.unit.kings_dilemma.builders import act, card, config, drafted, outcome, resolve, voting
from tests.unit.presenters.shown import shown_controls

NAMES = {i: {"name": name, "hex": "#123456"} for i, name in enumerate(["Anna", "Ben", "Chloe"])}
SEATS = [None, 0, 1, 2]
OPEN = [{"row": "wealth", "positive": True, "sticker": 43}]
KNOWN = card(31, outcome(("wealth", 2)), outcome(("morale", -1)), title="Bread taxes")


def night() -> dict:
    """Anna holds an Open Agenda; the campaign met card 31 before."""
    cfg = config(leader=0, moderator=2, known_cards={"31": KNOWN})
    cfg["seats"][0]["open_agendas"] = OPEN
    return cfg


def views(state: dict) -> dict:
    return {seat: RULES.view(state, seat) for seat in SEATS}


def over() -> dict:
    """A night played to its end: Stability pushed to the top (the King abdicates), then scored."""
    state = voting(night())
    state = act(state, "vote", 0, side="aye", power=1)
    state = resolve(act(act(state, "pass_gather", 1), "pass_gather", 2))
    for _ in range(2):
        state = act(state, "move_resource", None, row="wealth", amount=4, label="card effect")
    state = act(state, "to_time_counter", None)
    assert state["phase"] == "end"
    state = act(state, "score", None)
    if state["phase"] == "heir":
        state = act(state, "choose_heir", 2, heir=state["heir_candidates"][0])
    assert state["over"]
    return state


def facts(**fields) -> SessionFacts:
    return SessionFacts(id=7, version=3, campaign_id=None, seats=NAMES, **fields)


class TablePresentTests:
    def test_the_vote_names_the_voter_and_counts_the_power_on_each_side(self):
        state = act(voting(night()), "vote", 0, side="aye", power=3)
        for seat, view in views(state).items():
            present = PRESENTER.present(view, NAMES, None)
            assert present["phase"] == PHASES["voting"]
            assert present["waiting"] == "Waiting for Ben to vote."
            assert [h["acting"] for h in present["houses"]] == [False, True, False]
            assert present["houses"][0]["vote"] == "AYE 3"
            assert present["vote"] == {"aye": 3, "nay": 0}, seat
            assert present["card"]["title"] == card()["title"]

    def test_a_voter_who_voted_is_waited_for_to_add_power_or_stay(self):
        """Ben's bigger vote takes the Leader token: the vote goes on until Anna's turn comes again."""
        state = act(act(voting(night()), "vote", 0, side="aye", power=1), "vote", 1, side="nay", power=2)
        state = act(state, "pass_gather", 2)
        assert RULES.to_act(state) == [0]
        present = PRESENTER.present(RULES.view(state, None), NAMES, None)
        assert present["waiting"] == "Waiting for Anna to add Power or stay."

    def test_the_open_agendas_are_worded_from_the_engine(self):
        present = PRESENTER.present(RULES.view(drafted(night()), None), NAMES, None)
        assert present["houses"][0]["open_agendas"] == [open_agenda_words(OPEN[0])]
        assert present["houses"][1]["open_agendas"] == []
        assert present["waiting"] == "Waiting for the table to draw a Dilemma card and read its front."

    def test_a_tie_waits_for_the_moderator(self):
        state = voting(night())
        for seat in (0, 1, 2):
            state = act(state, "pass_gather", seat)
        present = PRESENTER.present(RULES.view(state, 1), NAMES, None)
        assert present["waiting"] == "Waiting for Chloe to decide the winning side (the Moderator)."

    def test_the_outcome_read_is_in_words_and_the_last_vote_stays(self):
        state = voting(night())
        state = act(act(act(state, "vote", 0, side="aye", power=2), "pass_gather", 1), "pass_gather", 2)
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 2), envelope=5, note="A feast"))
        present = PRESENTER.present(RULES.view(state, None), NAMES, None)
        assert present["outcome"] == ["Wealth +2", "Envelope 05", "A feast"]
        assert present["last_vote"] == {"aye": 2, "nay": 0, "side": SIDE["aye"]}
        assert present["winning_side"] == "AYE"


class TimeCounterWordsTests:
    """The table showed "Time Counter 11/10" beside the log's "(10/10)": the board counts the spaces
    filled as the log does, and the cards on the lightning space apart (rulebook "The King is Dead")."""

    def present_with(self, cards: int) -> dict:
        view = RULES.view(drafted(night()), None)
        view["board"]["time_counter"] = list(range(1, cards + 1))
        return PRESENTER.present(view, NAMES, None)

    def test_cards_past_the_last_space_are_on_the_lightning_space(self):
        present = self.present_with(11)
        assert (present["time_counter"], present["time_counter_spaces"]) == (10, 10)
        assert present["time_counter_lightning"] == "2 cards on the lightning space"

    def test_one_card_on_the_lightning_space_is_one_card(self):
        present = self.present_with(10)
        assert (present["time_counter"], present["time_counter_lightning"]) == (
            10,
            "1 card on the lightning space",
        )

    def test_before_the_lightning_space_only_the_count_shows(self):
        present = self.present_with(3)
        assert (present["time_counter"], present["time_counter_lightning"]) == (3, "")


class PrivateTests:
    def test_each_house_sees_its_own_screen_and_the_table_none(self):
        state = act(voting(night()), "pass_gather", 0)
        for seat, view in views(state).items():
            private = PRESENTER.private(view)
            if seat is None:
                assert private is None
                continue
            mine = state["seats"][seat]
            assert (private["power"], private["coins"]) == (mine["power"], mine["coins"])
            assert private["pass_coin"] == (1 if seat == 0 else 0)
            assert private["agenda"]["name"] == mine["secret_agenda"].capitalize()
        assert PRESENTER.private(RULES.view(state, 0))["open_agendas"] == [open_agenda_words(OPEN[0])]
        assert PRESENTER.private(RULES.view(state, 1))["open_agendas"] == []

    def test_a_draft_offer_is_a_choice_in_two_short_sentences(self):
        state = act(RULES.setup(night(), 1), "deal", None)
        drafting = state["draft"]["order"][0]
        view = RULES.view(state, drafting)
        agenda = view["private"]["draft_offer"][0]
        choice = RULES.legal_actions(state, drafting)[0]
        words = PRESENTER.words(view, NAMES, [choice])
        assert words.option(choice, "agenda", agenda) == agenda_short(agenda)
        assert agenda in DEFAULT_TRACKS["secret_agendas"]


class ResultTests:
    def test_the_result_ranks_the_houses_with_the_engine_s_totals(self):
        state = over()
        present = PRESENTER.present(RULES.view(state, None), NAMES, state["result"])
        rows = present["result"]["rows"]
        scores = {NAMES[i]["name"]: s for i, s in enumerate(state["result"]["seats"])}
        assert {r["name"]: r["total"] for r in rows} == {n: s["total"] for n, s in scores.items()}
        assert [r["position"] for r in rows] == sorted(r["position"] for r in rows)
        assert (
            present["result"]["reign"] == "King Harald V abdicated: Stability rose to the top of its track."
        )
        assert present["phase"] == PHASES["over"] and present["waiting"] == ""

    def test_save_words_name_the_awards(self):
        result = over()["result"]
        words = save_words(result, ["Anna", "Ben", "Chloe"])
        assert words["awards"][0].startswith(f"Anna: {result['seats'][0]['total']} points, Prestige +")
        assert words["trash"] == ", ".join(str(n) for n in result["resolved_dilemmas"])


class TableFormsTests:
    def table(self, state: dict) -> dict:
        choices = RULES.legal_actions(state, None)
        return {"view": RULES.view(state, None), "legal_actions": choices, "over": state["over"]}

    def test_the_draw_offers_the_cards_met_before_with_their_front(self):
        context = PRESENTER.table_forms(facts=facts(), table=self.table(drafted(night())), bound={})
        assert isinstance(context["kings_dilemma_draw_form"], DilemmaCardForm)
        assert context["kings_dilemma_outcome_form"] is None
        assert json.loads(context["kings_dilemma_known_fronts"])["31"]["title"] == "Bread taxes"
        assert PRESENTER.table_choices(self.table(drafted(night()))["legal_actions"]) == []

    def test_the_outcome_form_is_filled_in_from_the_stored_back(self):
        state = voting(night(), the_card=KNOWN)
        state = act(act(act(state, "vote", 0, side="aye", power=1), "pass_gather", 1), "pass_gather", 2)
        context = PRESENTER.table_forms(facts=facts(), table=self.table(state), bound={})
        form = context["kings_dilemma_outcome_form"]
        assert isinstance(form, OutcomeForm)
        assert (form.initial["move_1_row"], form.initial["move_1_amount"]) == ("wealth", 2)

    def test_the_resolution_offers_the_hand_applied_effects(self):
        state = voting(night())
        state = act(act(act(state, "vote", 0, side="aye", power=1), "pass_gather", 1), "pass_gather", 2)
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)))
        table = self.table(state)
        context = PRESENTER.table_forms(facts=facts(), table=table, bound={})
        assert context["kings_dilemma_effect_form"] is not None
        shown = {c["type"] for c in PRESENTER.table_choices(table["legal_actions"])}
        assert (
            shown == {c["type"] for c in table["legal_actions"]} - TYPED_TABLE_ACTIONS == {"to_time_counter"}
        )

    def test_the_effect_form_stops_offering_mystery_stickers_once_all_six_are_attached(self):
        """Rulebook 'Triggering the end of the campaign': "You will attach exactly 6 Mystery stickers
        during your campaign": the host's form offers the letters still behind their doors, then none."""

        def effect_form(mystery_before: list[str]):
            cfg = {**night(), "mystery_stickers": mystery_before}
            state = voting(cfg)
            state = act(act(act(state, "vote", 0, side="aye", power=1), "pass_gather", 1), "pass_gather", 2)
            state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)))
            return PRESENTER.table_forms(facts=facts(), table=self.table(state), bound={})[
                "kings_dilemma_effect_form"
            ]

        five = effect_form(list("ABCDE"))
        assert [c for c, _ in five.fields["letter"].choices] == ["", *"FGHIJKL"]
        assert "mystery_sticker" in [k for k, _ in five.fields["kind"].choices]
        six = effect_form(list("ABCDEF"))
        assert [k for k, _ in six.fields["kind"].choices] == ["move_resource", "adjust", "to_event_area"]
        assert [c for c, _ in six.fields["letter"].choices] == [""]

    @pytest.mark.parametrize("kind", ["draw", "outcome", "effect"])
    def test_a_posted_form_is_composed_by_its_kind(self, kind):
        table = self.table(drafted(night()))
        assert PRESENTER.compose_form(kind=kind, data={}, facts=facts(), table=table) is not None
        assert PRESENTER.compose_form(kind="other", data={}, facts=facts(), table=table) is None


class SeveralHousesFormTests:
    """The host's effect form at the resolution: Houses ticked or named by their vote, open from the
    start (the card was kept open for effects by hand), Coins given or taken to begin with."""

    def resolution(self) -> dict:
        state = voting(night())
        state = act(
            act(act(state, "vote", 0, side="aye", power=2), "vote", 1, side="nay", power=1), "pass_gather", 2
        )
        state = act(state, "read_outcome", None, outcome=outcome(("wealth", 1)))
        return TableFormsTests().table(state)

    def test_the_voters_of_each_side_are_offered_by_name(self):
        table = self.resolution()
        assert voters_of(table["view"]) == {"aye": [0], "nay": [1]}
        form = PRESENTER.table_forms(facts=facts(), table=table, bound={})["kings_dilemma_effect_form"]
        assert form.fields["voters"].choices == [
            ("aye", "Every AYE voter (Anna)"),
            ("nay", "Every NAY voter (Ben)"),
        ]
        assert form.fields["target"].choices == [(0, "Anna"), (1, "Ben"), (2, "Chloe")]

    def test_each_field_names_the_kinds_it_serves(self):
        form = PRESENTER.table_forms(facts=facts(), table=self.resolution(), bound={})[
            "kings_dilemma_effect_form"
        ]
        kinds = {field.name: serves for field, serves in form.rows()}
        assert kinds["kind"] == kinds["label"] == ""  # every kind
        assert kinds["target"] == kinds["voters"] == kinds["what"] == "adjust"
        assert kinds["amount"] == "move_resource adjust" and kinds["letter"] == "mystery_sticker"

    def test_a_side_nobody_voted_is_not_offered(self):
        assert voters_of({"vote": None, "last_vote": {"choice": ["aye", "gather", "moderator"]}}) == {
            "aye": [0]
        }
        assert voters_of({"vote": None, "last_vote": None}) == {}

    def test_the_form_starts_open_on_coins_at_the_resolution(self):
        context = PRESENTER.table_forms(facts=facts(), table=self.resolution(), bound={})
        assert context["kings_dilemma_effect_open"] is True
        form = context["kings_dilemma_effect_form"]
        assert (form.initial["kind"], form.initial["what"]) == ("adjust", "coins")

    def test_the_form_is_folded_at_the_draw(self):
        context = PRESENTER.table_forms(
            facts=facts(), table=TableFormsTests().table(drafted(night())), bound={}
        )
        assert context["kings_dilemma_effect_form"] is None or context["kings_dilemma_effect_open"] is False

    def test_the_voters_ticked_become_the_houses_of_the_action(self):
        table = self.resolution()
        data = {
            "kind": "adjust",
            "label": "NAY pays",
            "voters": ["nay"],
            "target": ["2"],
            "what": "coins",
            "amount": "-1",
            "version": "3",
        }
        form = PRESENTER.compose_form(
            kind="effect", data=QueryDict(urlencode(data, doseq=True)), facts=facts(), table=table
        )
        assert form.is_valid(), form.errors
        assert form.action() == {
            "type": "adjust",
            "label": "NAY pays",
            "target": [1, 2],
            "what": "coins",
            "amount": -1,
        }
        assert form.kept() == {
            "kind": "adjust",
            "label": "NAY pays",
            "target": [2],
            "voters": ["nay"],
            "what": "coins",
            "amount": -1,
        }


class BargainingTests:
    def test_giving_coins_is_folded_apart_for_every_house_the_voter_included(self):
        """Bargaining ("at any time during the Voting Phase", rulebook "Bargaining") is open to every
        House: it never reads as the voter's own decision, nor as a House the vote waits for."""
        state = voting(night())
        voter = RULES.to_act(state)[0]
        for seat in (0, 1, 2):
            choices = RULES.legal_actions(state, seat)
            groups = shown_controls(PRESENTER, choices, RULES.view(state, seat), NAMES, None)
            gifts = [g for g in groups if g["type"] == "give_coins"]
            assert len(gifts) == 1 and gifts[0]["open"], seat
            assert all(not g["open"] for g in groups if g["type"] != "give_coins"), seat
            assert any(not g["open"] for g in groups) == (seat == voter)
