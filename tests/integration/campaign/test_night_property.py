"""Random King's Dilemma nights of a campaign, played at the table through the services and written
into the campaign (issue 23, "A night always reaches the campaign"). The host now and then types a
number already used (an Envelope opened, a sticker attached, a Dilemma trashed or drawn tonight, a
Mystery letter attached): the table refuses it with its sentence and nothing is logged. Between the
scoring and the save, the campaign is sometimes changed by hand from the pages. Every night is
written, and every sticker, Envelope, Mystery sticker and resolved Dilemma of the night is then in
the campaign or listed as a conflict of the night (and only what was changed by hand conflicts)."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.models import (
    CampaignEvent,
    ChronicleSticker,
    DilemmaCard,
    Envelope,
    MysterySticker,
)
from campaign.services import game_nights, night_saves
from campaign.services.envelopes import envelope_open
from campaign.services.stickers import mystery_sticker_attach, sticker_attach
from games.engines.kernel.errors import RuleError
from games.engines.kings_dilemma import messages as msg
from tests.factories import UserFactory, campaign_with_houses
from tests.kings_dilemma_play import ROWS, draft, play, vote_through
from tests.unit.contract import property_examples

pytestmark = [pytest.mark.database, pytest.mark.django_db]

LETTERS = "ABCD"  # never the sixth Mystery sticker: the campaign stays open for the next night
ENVELOPES = range(1, 25)  # never Envelope 70, the Grand Finale


class Table:
    """The host of one night, typing what hypothesis draws."""

    def __init__(self, session, data, fresh):
        self.session, self.data, self.fresh = session, data, fresh
        config = session.config
        self.trash = sorted(int(n) for n, place in config["cards_out_of_deck"].items() if place == "trash")
        self.deck = list(config["dilemma_deck"])
        self.stickers = set(config["stickers_attached"])
        self.envelopes = set(config["envelopes_opened"])
        self.letters = set(config["mystery_stickers"])
        self.drawn: list[int] = []
        self.refusals = 0

    def refused(self, message: str, type_: str, **fields) -> None:
        """The table refuses what the host typed, with its sentence, and logs nothing."""
        self.session.refresh_from_db()
        version = self.session.version
        with pytest.raises(RuleError) as raised:
            play(self.session, None, type_, **fields)
        assert raised.value.message == message
        self.session.refresh_from_db()
        assert self.session.version == version
        self.refusals += 1

    def draw(self) -> None:
        if self.trash and self.data.draw(st.booleans()):
            number = self.data.draw(st.sampled_from(self.trash))
            place = msg.OUT_OF_DECK_PLACES["trash"]
            self.refused(
                msg.DILEMMA_NOT_IN_DECK.format(number=number, place=place),
                "draw_dilemma",
                card={"number": number, "title": "Again"},
            )
        if self.drawn and self.data.draw(st.booleans()):
            number = self.data.draw(st.sampled_from(self.drawn))
            self.refused(msg.CARD_ALREADY.format(number=number), "draw_dilemma", card={"number": number})
        left = [n for n in self.deck if n not in self.drawn]
        number = (
            self.data.draw(st.sampled_from(left))
            if left and self.data.draw(st.booleans())
            else next(self.fresh)
        )
        play(self.session, None, "draw_dilemma", card={"number": number, "title": f"Dilemma {number}"})
        self.drawn.append(number)

    def taken_or_new(self, taken: set, pool, refusal) -> int | None:
        """A number the host types: first, maybe, one already used (refused), then a new one or none."""
        if taken and self.data.draw(st.booleans()):
            number = self.data.draw(st.sampled_from(sorted(taken)))
            message, type_, fields = refusal(number)
            self.refused(message, type_, **fields)
        free = [n for n in pool if n not in taken]
        if not free or not self.data.draw(st.booleans()):
            return None
        number = self.data.draw(st.sampled_from(free))
        taken.add(number)
        return number

    def outcome(self, state: dict, lightning: bool) -> dict:
        back = {
            "resources": [[ROWS[state["round"] % 5], 1 if state["stability"] < 9 else -1]],
            "lightning": lightning,
        }

        def typed(sticker=None, envelope=None):
            return {**back, "sticker": sticker, "envelope": envelope}

        def sticker_of(number):
            return {"number": number, "row": "wealth", "positive": True}

        tonight = {s["number"]: s["dilemma"] for s in state["stickers"]}
        sticker = self.taken_or_new(
            self.stickers,
            range(1, 60),
            lambda n: (
                msg.STICKER_TONIGHT.format(number=n, dilemma=tonight[n])
                if n in tonight
                else msg.STICKER_ON_BOARD.format(number=n),
                "read_outcome",
                {"outcome": typed(sticker=sticker_of(n))},
            ),
        )
        opened = {e["number"]: e["dilemma"] for e in state["envelopes"]}
        envelope = self.taken_or_new(
            self.envelopes,
            ENVELOPES,
            lambda n: (
                msg.ENVELOPE_TONIGHT.format(number=n, dilemma=opened[n])
                if n in opened
                else msg.ENVELOPE_OPENED.format(number=n),
                "read_outcome",
                {"outcome": typed(envelope=n)},
            ),
        )
        return typed(sticker=sticker_of(sticker) if sticker else None, envelope=envelope)

    def mystery(self) -> None:
        letter = self.taken_or_new(
            self.letters,
            LETTERS,
            lambda x: (
                msg.MYSTERY_TWICE.format(letter=x),
                "mystery_sticker",
                {"letter": x, "label": "Dossier"},
            ),
        )
        if letter:
            play(self.session, None, "mystery_sticker", letter=letter, label="Dossier")

    def play(self) -> dict:
        state, placed, event_area = draft(self.session), 0, 0
        while state["phase"] == "draw":
            self.draw()
            state = vote_through(self.session, "aye")
            if state["phase"] == "tie_break":
                state = play(self.session, state["moderator"], "break_tie", side="aye")
            to_event_area = placed < 9 and event_area < 2 and self.data.draw(st.integers(0, 9)) == 9
            lightning = not to_event_area and placed == 9
            state = play(self.session, None, "read_outcome", outcome=self.outcome(state, lightning))
            if self.data.draw(st.integers(0, 4)) == 0:
                self.mystery()
            if to_event_area:
                state = play(self.session, None, "to_event_area", label="A Trigger card")
                event_area += 1
            else:
                state = play(self.session, None, "to_time_counter")
                placed += 1
        state = play(self.session, None, "score")
        if state["phase"] == "heir":
            state = play(self.session, state["moderator"], "choose_heir", heir=state["heir_candidates"][0])
        assert state["over"]
        return state["result"]

    def contents(self, result: dict) -> dict:
        """What the host finds in each Envelope opened tonight: new cards (a standard Envelope, or a
        Special one with nothing the app needs)."""
        contents = {}
        for envelope in result["envelopes"]:
            if self.data.draw(st.booleans()):
                contents[envelope["number"]] = {"special": True}
            else:
                story = next(self.fresh)
                contents[envelope["number"]] = {
                    "story_card": {"number": story, "storyline": "Crown"},
                    "dilemma_numbers": [next(self.fresh) for _ in range(3)],
                }
        return contents


def meddle(data, campaign, houses, result) -> set:
    """The campaign changed by hand from the pages during the night: what then conflicts."""
    expected = set()
    for sticker in result["stickers"]:
        if data.draw(st.integers(0, 3)) == 0:
            sticker_attach(
                campaign=campaign, number=sticker["number"], row="morale", positive=False, signer=houses[0]
            )
            expected.add(("sticker", sticker["number"]))
    for envelope in result["envelopes"]:
        if data.draw(st.integers(0, 3)) == 0:
            envelope_open(campaign=campaign, number=envelope["number"], special=True)
            expected.add(("envelope", envelope["number"]))
    for letter in result["mystery_stickers"]:
        if data.draw(st.integers(0, 3)) == 0:
            mystery_sticker_attach(campaign=campaign, letter=letter)
            expected.add(("mystery_sticker", letter))
    for number in result["resolved_dilemmas"]:
        if data.draw(st.integers(0, 9)) == 0:  # trashed by hand (a correction from the pages)
            DilemmaCard.objects.update_or_create(
                campaign=campaign, number=number, defaults={"place": DilemmaCard.Place.TRASH}
            )
            expected.add(("dilemma_card", number))
    return expected


def check_written(campaign, game, result, expected) -> None:
    """Every item of the night is in the campaign, from this night, or listed as a conflict."""
    assert game.recorded and game.scores.count() == len(result["seats"])
    conflicts = {(c["kind"], c["number"]) for c in game.conflicts}
    assert conflicts == expected
    assert all(c["message"] and c["what"] and c["typed"] for c in game.conflicts)
    events = CampaignEvent.objects.filter(campaign=campaign, kind="night_conflict", game=game)
    assert events.count() == len(game.conflicts)
    for sticker in result["stickers"]:
        written = ChronicleSticker.objects.filter(campaign=campaign, number=sticker["number"], game=game)
        assert written.exists() != (("sticker", sticker["number"]) in conflicts)
    for envelope in result["envelopes"]:
        written = Envelope.objects.filter(campaign=campaign, number=envelope["number"], game=game)
        assert written.exists() != (("envelope", envelope["number"]) in conflicts)
    for letter in result["mystery_stickers"]:
        written = MysterySticker.objects.filter(campaign=campaign, letter=letter, game=game)
        assert written.exists() != (("mystery_sticker", letter) in conflicts)
    cards = {c.number: c for c in campaign.dilemma_cards.all()}
    for number in result["resolved_dilemmas"]:
        assert cards[number].place == DilemmaCard.Place.TRASH
        assert (cards[number].resolved_in_id == game.pk) != (("dilemma_card", number) in conflicts)
    assert {int(n) for n in result["cards_met"]} <= set(cards)
    assert not any(c.place == DilemmaCard.Place.EVENT_AREA for c in cards.values())


@settings(
    max_examples=property_examples(4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), nights=st.integers(1, 3), seed=st.integers(0, 2**31))
def test_random_nights_are_always_written_into_the_campaign(data, nights, seed):
    user = UserFactory()
    campaign, houses = campaign_with_houses("Anna", "Ben", "Chloe", user=user)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=[1, 2, 3])
    fresh = itertools.count(100)
    for night in range(nights):
        session = game_nights.game_night_start(
            campaign=campaign, houses=houses, king_name=f"King {night}", host=user, seed=seed + night
        )
        table = Table(session, data, fresh)
        result = table.play()
        expected = meddle(data, campaign, houses, result)
        game = night_saves.game_night_record(
            session=session, envelope_contents=table.contents(result), actor=user
        )
        check_written(campaign, game, result, expected)
