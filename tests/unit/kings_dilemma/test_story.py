"""The story of a night, told from its log: a scripted night of three Dilemmas, then the story
checked against every logged action."""

import pytest

from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma.rules import RULES
from games.engines.kings_dilemma.story import house_figures, night_story, replay
from tests.unit.kings_dilemma.builders import card, config, front, outcome

FIRST = card(
    31,
    title="Bread taxes",
    aye=outcome(("wealth", 1), sticker={"number": 43, "row": "welfare", "positive": True}, envelope=5),
    nay=outcome(("wealth", -1)),
)
FIRST["question"] = "Shall we cut them?"
SECOND = card(32, title="A foreign prince", aye=outcome(("influence", -1)), nay=outcome(("influence", 1)))
THIRD = card(33, title="The great fair", aye=outcome(("morale", 8), ("knowledge", 8)))


class ScriptedNight:
    """Anna, Ben and Chloe; Anna leads and Ben moderates when the first card is drawn."""

    def __init__(self):
        self.config = config(leader=0, moderator=1)
        self.seed = 77
        self.state = RULES.setup(self.config, self.seed)
        self.log: list[dict] = []

    def do(self, type_, seat, **fields):
        action = {"type": type_, "seat": seat, **fields}
        self.state = RULES.apply(self.state, action)
        self.log.append(action)
        return self.state

    def play(self):
        self.do("deal", None)
        while self.state["phase"] == "draft":
            seat = self.state["draft"]["order"][self.state["draft"]["index"]]
            self.do("choose_secret_agenda", seat, agenda=self.state["draft"]["remaining"][0])
        # 1. Anna votes AYE with 3; Ben pays her 2 Coins, then votes NAY with 2; Chloe passes and
        #    gathers. AYE 3 to NAY 2: the sticker and the Envelope, signed and opened by Anna.
        self.do("draw_dilemma", None, card={**front(FIRST), "question": FIRST["question"]})
        self.do("vote", 0, side="aye", power=3)
        self.do("give_coins", 1, to=0, coins=2)
        self.do("vote", 1, side="nay", power=2)
        self.do("pass_gather", 2)
        self.do("read_outcome", None, outcome=FIRST["aye"])
        self.do("to_time_counter", None)
        # 2. Anna NAY 2, Ben AYE 2, Chloe passes and becomes the Moderator; a tie she decides for
        #    AYE: Ben, the only AYE voter, takes the Leader token. A Prestige given by hand, and the
        #    card goes to the Event area.
        self.do("draw_dilemma", None, card=front(SECOND))
        self.do("vote", 0, side="nay", power=2)
        self.do("vote", 1, side="aye", power=2)
        self.do("pass_moderator", 2)
        self.do("give_coins", 0, to=2, coins=1)  # Bargaining during the Vote Resolution
        self.do("break_tie", 2, side="aye")
        self.do("read_outcome", None, outcome=SECOND["aye"])
        self.do("adjust", None, target=2, what="prestige", amount=1, label="Royal favour")
        self.do("adjust", None, target=[0, 1], what="coins", amount=1, label="Alms")
        self.do("to_event_area", None, label="An Event card")
        # 3. Ben (Leader) AYE 1; Chloe and Anna pass: AYE. Morale and Knowledge soar: Stability
        #    reaches the top and the King abdicates.
        self.do("draw_dilemma", None, card=front(THIRD))
        self.do("vote", 1, side="aye", power=1)
        self.do("pass_gather", 2)
        self.do("pass_gather", 0)
        self.do("read_outcome", None, outcome=THIRD["aye"])
        self.do("to_time_counter", None)
        self.do("score", None)
        if self.state["phase"] == "heir":
            self.do("choose_heir", self.state["moderator"], heir=self.state["heir_candidates"][0])
        return self


def story_of(night: ScriptedNight, upto: int | None = None) -> dict:
    log = night.log if upto is None else night.log[:upto]
    return night_story(night.config, night.seed, log)


class NightStoryTests:
    def test_the_story_tells_each_dilemma_as_the_log_played_it(self):
        night = ScriptedNight().play()
        story = story_of(night)
        assert story["king_name"] == "Harald V"
        assert [h["name"] for h in story["houses"]] == ["Anna", "Ben", "Chloe"]
        first, second, third = story["dilemmas"]
        assert {k: first[k] for k in ("round", "number", "title", "question", "leader", "moderator")} == {
            "round": 1,
            "number": 31,
            "title": "Bread taxes",
            "question": "Shall we cut them?",
            "leader": 0,
            "moderator": 1,
        }
        assert first["votes"] == [
            {"seat": 0, "vote": "aye", "power": 3},
            {"seat": 1, "vote": "nay", "power": 2},
            {"seat": 2, "vote": "gather", "power": 0},
        ]
        assert (first["aye"], first["nay"], first["side"], first["undecided"]) == (3, 2, "aye", None)
        assert first["carried_by"] == [0] and first["resolved_by"] == 0 and first["decided_by"] is None
        assert first["coins"] == [{"from": 1, "to": 0, "coins": 2}]
        assert first["outcome"]["resources"] == [["wealth", 1]]
        assert first["stickers"] == [{"number": 43, "row": "welfare", "positive": True, "signer": 0}]
        assert first["envelopes"] == [{"number": 5, "opened_by": 0, "grand_finale": False}]
        assert first["placed"] == "time_counter" and first["effects"] == []

        assert (second["leader"], second["moderator"]) == (0, 1)
        assert [v["vote"] for v in second["votes"]] == ["nay", "aye", "moderator"]
        assert (second["aye"], second["nay"], second["side"], second["undecided"]) == (2, 2, "aye", "tie")
        assert second["decided_by"] == 2 and second["moderator_after"] == 2
        assert second["carried_by"] == [1] and second["resolved_by"] == 1
        assert second["coins"] == [{"from": 0, "to": 2, "coins": 1}]
        # An effect on several Houses is told House by House, like two effects.
        assert second["effects"] == [
            {"what": "adjust", "label": "Royal favour", "target": 2, "kind": "prestige", "amount": 1},
            {"what": "adjust", "label": "Alms", "target": 0, "kind": "coins", "amount": 1},
            {"what": "adjust", "label": "Alms", "target": 1, "kind": "coins", "amount": 1},
        ]
        assert second["placed"] == "event_area" and second["stickers"] == second["envelopes"] == []

        assert (third["leader"], third["moderator"], third["side"], third["carried_by"]) == (1, 2, "aye", [1])
        assert third["outcome"]["resources"] == [["morale", 8], ["knowledge", 8]]
        assert third["stability"] == 17
        assert story["coins"] == [
            {"from": 1, "to": 0, "coins": 2, "dilemma": 31},
            {"from": 0, "to": 2, "coins": 1, "dilemma": 32},
        ]
        assert story["end"] == "abdicated_top" and story["over"]

    def test_the_story_matches_the_log_action_by_action(self):
        """Every vote, gift, outcome and placement in the log appears in the story, and nothing else."""
        night = ScriptedNight().play()
        story = story_of(night)
        draws = [a for a in night.log if a["type"] == "draw_dilemma"]
        assert [d["number"] for d in story["dilemmas"]] == [a["card"]["number"] for a in draws]
        gifts = [a for a in night.log if a["type"] == "give_coins"]
        assert [(g["from"], g["to"], g["coins"]) for g in story["coins"]] == [
            (a["seat"], a["to"], a["coins"]) for a in gifts
        ]
        votes = {}
        for action in night.log:
            if action["type"] == "draw_dilemma":
                number = action["card"]["number"]
            elif action["type"] == "vote":
                votes[(number, action["seat"])] = (action["side"], action["power"])
        told = {
            (d["number"], v["seat"]): (v["vote"], v["power"])
            for d in story["dilemmas"]
            for v in d["votes"]
            if v["vote"] in ("aye", "nay")
        }
        assert told == votes
        outcomes = [a["outcome"] for a in night.log if a["type"] == "read_outcome"]
        assert [d["outcome"]["resources"] for d in story["dilemmas"]] == [o["resources"] for o in outcomes]
        placed = [
            a["type"].removeprefix("to_")
            for a in night.log
            if a["type"] in ("to_time_counter", "to_event_area")
        ]
        assert [d["placed"] for d in story["dilemmas"]] == placed

    def test_the_ranking_is_the_engine_s_result(self):
        night = ScriptedNight().play()
        story = story_of(night)
        result = night.state["result"]
        assert story["resources_final"] == result["resources_final"]
        assert story["winners"] == result["winners"] and story["heir"] == result["heir"]
        by_seat = {r["seat"]: r for r in story["ranking"]}
        for seat, row in enumerate(result["seats"]):
            assert by_seat[seat]["total"] == row["total"]
            assert by_seat[seat]["position"] == row["position"]
            assert by_seat[seat]["secret_agenda"] == row["secret_agenda"]
        assert [r["position"] for r in story["ranking"]] == sorted(r["position"] for r in story["ranking"])

    def test_an_unfinished_night_keeps_the_secret_agendas(self):
        night = ScriptedNight().play()
        upto = next(i for i, a in enumerate(night.log) if a["type"] == "score")
        story = story_of(night, upto)
        assert not story["over"] and story["ranking"] is None and story["end"] == "abdicated_top"
        agendas = {s["secret_agenda"] for s in night.state["result"]["seats"]}
        assert not any(agenda in repr(story) for agenda in agendas)

    def test_a_vote_still_running_has_no_side(self):
        night = ScriptedNight().play()
        upto = next(i for i, a in enumerate(night.log) if a["type"] == "give_coins") + 1
        story = story_of(night, upto)
        (only,) = story["dilemmas"]
        assert (
            only["side"] is None
            and only["votes"] == []
            and only["coins"] == [{"from": 1, "to": 0, "coins": 2}]
        )

    def test_house_figures_count_leading_moderating_winning_and_coins(self):
        story = story_of(ScriptedNight().play())
        assert house_figures(story, 0) == {
            "dilemmas": 3,
            "led": 1,
            "moderated": 0,
            "voted": 2,
            "won": 1,
            "coins_given": 1,
            "coins_received": 2,
        }
        assert house_figures(story, 1) == {
            "dilemmas": 3,
            "led": 2,
            "moderated": 1,
            "voted": 3,
            "won": 2,
            "coins_given": 2,
            "coins_received": 0,
        }
        assert house_figures(story, 2)["moderated"] == 2 and house_figures(story, 2)["coins_received"] == 1

    def test_the_same_log_tells_the_same_story(self):
        night = ScriptedNight().play()
        assert story_of(night) == story_of(night)


class ReplayTests:
    def test_the_story_s_fold_is_the_engine_s_apply(self):
        """The story replays without a copy per action: step by step it must be RULES.apply's fold."""
        night = ScriptedNight().play()
        state = RULES.setup(night.config, night.seed)
        for action, _, replayed in replay(night.config, night.seed, night.log):
            state = RULES.apply(state, action)
            assert replayed == state
        assert state == night.state

    def test_a_log_that_goes_on_after_the_end_is_refused(self):
        night = ScriptedNight().play()
        with pytest.raises(RuleError):
            night_story(night.config, night.seed, [*night.log, {"type": "score", "seat": None}])
        with pytest.raises(RuleError):
            night_story(night.config, night.seed, [{"type": "no_such_move", "seat": None}])
