"""Every change to a campaign is an event (docs/architecture.md section 5), checked the way Zulip's
``verify_action`` checks its events: each service call writes exactly the events it should, each with
its actor and a summary; the campaign's state changed; and the history, read from the events alone,
explains the state (every sticker, Envelope, Story card, Mystery sticker, House and game has its event,
and the ledger events add up to each House's Prestige and Crave)."""

from collections import Counter
from contextlib import contextmanager

import pytest

from campaign.models import CampaignEvent, LedgerEntry
from campaign.services.archive.export import campaign_archive
from campaign.services.chronicles import game_begin, game_result_correct, game_result_record
from campaign.services.envelopes import dilemma_card_remember, envelope_open, game_save
from campaign.services.houses import achievement_create, achievement_mark, house_create
from campaign.services.ledger import ledger_add
from campaign.services.stickers import mystery_sticker_attach, sticker_attach
from tests.factories import campaign_with_houses

pytestmark = [pytest.mark.database, pytest.mark.django_db]


def campaign_state(campaign) -> dict:
    archive = campaign_archive(campaign=campaign)
    return {k: v for k, v in archive.items() if k not in ("exported_at", "events")}


def explained_by_history(campaign) -> None:
    events = list(campaign.events.all())

    def numbers(kind, key="number"):
        return sorted(e.data[key] for e in events if e.kind == kind)

    assert numbers("sticker_attached") == sorted(campaign.stickers.values_list("number", flat=True))
    assert numbers("envelope_opened") == sorted(campaign.envelopes.values_list("number", flat=True))
    assert numbers("story_card_placed") == sorted(campaign.story_cards.values_list("number", flat=True))
    assert numbers("mystery_attached", "letter") == sorted(
        campaign.mystery_stickers.values_list("letter", flat=True)
    )
    assert sorted(e.house_id for e in events if e.kind == "house_created") == sorted(
        campaign.houses.values_list("pk", flat=True)
    )
    assert sorted(e.game_id for e in events if e.kind == "game_begun") == sorted(
        campaign.games.values_list("pk", flat=True)
    )
    from_events: Counter = Counter()
    for e in events:
        if e.kind == "ledger":
            from_events[(e.house_id, e.data["kind_"])] += e.data["amount"]
    from_ledger: Counter = Counter()
    for entry in LedgerEntry.objects.filter(house__campaign=campaign):
        from_ledger[(entry.house_id, entry.kind)] += entry.amount
    assert +from_events == +from_ledger


@contextmanager
def verify_events(campaign, kinds: list[str], *, actor):
    """The service run inside writes exactly ``kinds`` (in order), each with ``actor`` and a summary;
    the campaign's state changed; the history still explains the state."""
    before_state = campaign_state(campaign)
    last = campaign.events.order_by("-id").values_list("id", flat=True).first() or 0
    yield
    new = list(CampaignEvent.objects.filter(campaign=campaign, id__gt=last).order_by("id"))
    assert [e.kind for e in new] == kinds
    assert all(e.actor == actor and e.summary for e in new), [(e.kind, e.actor) for e in new]
    assert campaign_state(campaign) != before_state, "nothing changed"
    explained_by_history(campaign)


class CampaignEventsTests:
    def test_each_service_writes_its_events_and_the_history_explains_the_state(self, user):
        campaign, (a, b, c) = campaign_with_houses("Ann", "Bea", "Cid", user=user)
        with verify_events(campaign, ["house_created"], actor=user):
            house_create(campaign=campaign, name="Dag", number=4, actor=user)
        with verify_events(campaign, ["game_begun", "chronicle_aged"], actor=user):
            game = game_begin(campaign=campaign, king_name="Harald", actor=user)
        with verify_events(campaign, ["sticker_attached"], actor=user):
            sticker_attach(
                campaign=campaign, number=43, row="wealth", positive=True, signer=a, game=game, actor=user
            )
        with verify_events(campaign, ["envelope_opened", "story_card_placed", "ledger"], actor=user):
            envelope_open(
                campaign=campaign,
                number=9,
                opened_by=b,
                game=game,
                dilemma_numbers=[90, 91, 92],
                story_card={"number": 9, "storyline": "Crown", "effects": {"prestige": 2}},
                actor=user,
            )
        with verify_events(campaign, ["mystery_attached"], actor=user):
            mystery_sticker_attach(campaign=campaign, letter="C", game=game, actor=user)
        achievement = achievement_create(house=c, name="Builder", spaces=1, effects={"crave": 1})
        with verify_events(campaign, ["achievement_marked", "achievement_unlocked", "ledger"], actor=user):
            achievement_mark(achievement=achievement, game=game, actor=user)
        with verify_events(campaign, ["ledger"], actor=user):
            ledger_add(house=a, kind="prestige", amount=-1, reason="Card", source="manual", actor=user)
        with verify_events(campaign, ["dilemma_card_remembered"], actor=user):
            dilemma_card_remember(campaign=campaign, number=90, title="Plague", outcomes={}, actor=user)
        with verify_events(campaign, ["game_saved"], actor=user):
            game_save(game=game, resolved=[90], actor=user)

    def test_a_recorded_result_and_its_correction_are_explained_by_the_ledger_events(self, user):
        campaign, houses = campaign_with_houses("Ann", "Bea", "Cid", user=user)
        game = game_begin(campaign=campaign, king_name="Harald", actor=user)
        rows = [
            {"house": h, "secret_agenda": agenda, "agenda_points": points}
            for h, agenda, points in zip(houses, ["rebel", "greedy", "opulent"], [3, 2, 1], strict=True)
        ]
        # Position 1 to 3 (Prestige/Crave rows), the Rebel's abdication Crave, three alignment marks.
        recorded = [*["ledger"] * 4, *["achievement_marked"] * 3, "game_recorded"]
        with verify_events(campaign, recorded, actor=user):
            game_result_record(game=game, end="abdicated_top", rows=rows, actor=user)
        rows[0]["secret_agenda"] = "moderate"
        before = campaign_state(campaign)
        last = campaign.events.order_by("-id").values_list("id", flat=True).first()
        game_result_correct(game=game, end="abdicated_top", rows=rows, reason="typo", actor=user)
        new = list(campaign.events.filter(id__gt=last).order_by("id"))
        assert new[-1].kind == "game_corrected" and all(e.actor == user and e.summary for e in new)
        assert campaign_state(campaign) != before
        explained_by_history(campaign)
