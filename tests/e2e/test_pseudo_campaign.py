"""The campaign's pages in the pseudo-language: every page type of a campaign with saved nights,
stickers, Envelopes, stories, a correction, members and an invitation, opened as its owner, as a
player, and (the invitation and a shared story) without an account. No visible word may stand
outside a wrapped message, the correction forms' refusals included."""

import re

import pytest
from django.urls import reverse

from campaign.services.chronicles import game_begin
from campaign.services.game_nights import game_night_start
from campaign.services.members import invitation_create
from campaign.services.stickers import mystery_sticker_attach
from tests.campaign_life import campaign_lived, night_abandoned
from tests.e2e.conftest import PHONE, login
from tests.e2e.pseudo import outside_messages, page_text, unwrapped_words
from tests.e2e.test_languages import pseudo_language  # noqa: F401  # the fixture, for usefixtures
from tests.factories import UserFactory, campaign_at_the_last_mystery, campaign_with_houses
from tests.story_play import HOUSES, _first_two_open_agendas, play_campaign_night

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OWNER, PLAYER = "olga", "piet"
CAMPAIGN = "Autumn realm"
# What the test itself typed (names, Kings, a storyline, a sticker's title): data, not messages.
DATA = (
    OWNER,
    PLAYER,
    CAMPAIGN,
    "Finale",
    "First",
    *HOUSES,
    "Aldric",
    "Olaf",
    "Crown",
    "Faith",
    "Schism",
    "Bread riots",
)
# The cards the nights drew, as tests/story_play.py types them.
CARDS = (r"Dilemma \d+", r"“Shall the realm answer question \d+\?”")


def walk_campaign():
    """Two nights saved, a sticker corrected, a player, a pending invitation, a shared story, a
    night abandoned and the next one played to its end, waiting for its save."""
    owner, player = UserFactory(username=OWNER), UserFactory(username=PLAYER)
    campaign, houses, games, sticker, link = campaign_lived(owner=owner, player=player, name=CAMPAIGN)
    invitation = invitation_create(campaign=campaign, actor=owner, role="player", house=None, days=3)
    abandoned = night_abandoned(campaign, houses, host=owner)
    night = game_night_start(
        campaign=campaign,
        houses=houses,
        king_name="Aldric 3",
        host=owner,
        seed=1003,
        keep=_first_two_open_agendas(campaign, houses),
    )
    play_campaign_night(night, 3)
    return campaign, sticker, games, invitation, link, abandoned, night


def other_campaigns(owner) -> dict[str, str]:
    """A campaign at its Grand Finale with a game begun on paper (its result form), and one before
    its first game (Envelope 00 to open)."""
    finale, _ = campaign_at_the_last_mystery("Valentine", "Martina", user=owner, name="Finale")
    game_begin(campaign=finale, king_name="Olaf")
    mystery_sticker_attach(campaign=finale, letter="F")
    first, _ = campaign_with_houses("Valentine", user=owner, name="First")
    return {
        "Grand Finale": reverse("campaign-detail", args=[finale.pk]),
        "a result to record": reverse("campaign-chronicles", args=[finale.pk]),
        "before the first game": reverse("campaign-detail", args=[first.pk]),
    }


def owner_pages(campaign, sticker, games, abandoned, night) -> dict[str, str]:
    pk = campaign.pk
    envelope = campaign.envelopes.order_by("number").last()
    card = campaign.dilemma_cards.order_by("number").first()
    house = campaign.houses.order_by("number").first()
    return {
        "detail": reverse("campaign-detail", args=[pk]),
        "chronicles": reverse("campaign-chronicles", args=[pk]),
        "history": reverse("campaign-history", args=[pk]) + f"?sticker={sticker.number}",
        "history of no sticker": reverse("campaign-history", args=[pk]) + "?sticker=999",
        "statistics": reverse("campaign-statistics", args=[pk]),
        "house": reverse("house-page", args=[pk, house.pk]),
        "story": reverse("night-story", args=[pk, games[0].number]),
        "sheet": reverse("campaign-sheet", args=[pk]),
        "members": reverse("campaign-members", args=[pk]),
        "night start": reverse("kd-night-start", args=[pk]),
        "night record": reverse("kd-night-record", args=[pk, night.pk]),
        "night resume": reverse("kd-night-resume", args=[pk, abandoned.pk]),
        "correct a night": reverse("game-correct", args=[pk, games[0].number]),
        "correct a sticker": reverse("sticker-correct", args=[pk, sticker.number]),
        "correct aging marks": reverse("sticker-aging-correct", args=[pk, sticker.number]),
        "correct an Envelope": reverse("envelope-correct", args=[pk, envelope.number]),
        "move a card": reverse("card-move", args=[pk, card.number]),
        "a form's own page": reverse("sticker-attach", args=[pk]),
        "new campaign": reverse("campaign-create"),
        "import": reverse("campaign-import"),
    }


def member_pages(campaign, games) -> dict[str, str]:
    pk = campaign.pk
    house = campaign.houses.get(user__username=PLAYER)
    return {
        "detail": reverse("campaign-detail", args=[pk]),
        "house": reverse("house-page", args=[pk, house.pk]),
        "story": reverse("night-story", args=[pk, games[1].number]),
        "members": reverse("campaign-members", args=[pk]),
        "night start": reverse("kd-night-start", args=[pk]),
        "chronicles": reverse("campaign-chronicles", args=[pk]),
    }


def read(page, url: str = "") -> str:
    """What the page shows outside its wrapped messages, its folds opened, the test's data aside."""
    if url:
        page.goto(url)
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    rest = outside_messages(page_text(page))
    for pattern in CARDS:
        rest = re.sub(pattern, " ", rest)
    return rest


def words_outside(rest: str) -> list[str]:
    return unwrapped_words(rest, data=DATA)


def refusals(page, live_server, campaign, sticker) -> dict[str, str]:
    """The correction forms sent with what they refuse (the refusal shows beside the form), and a
    story shared (a message says so)."""
    found = {}
    page.goto(live_server.url + reverse("sticker-aging-correct", args=[campaign.pk, sticker.number]))
    page.fill("input[name=marks]", "-1")
    page.click("form.stack button[type=submit]")
    page.wait_for_selector(".errorlist")
    found["aging marks refused"] = read(page)
    page.goto(live_server.url + reverse("game-correct", args=[campaign.pk, 1]))
    page.select_option("select[name=row1-house]", index=1)
    page.click("form.stack button[type=submit]")
    page.wait_for_selector(".errorlist")
    found["night correction refused"] = read(page)
    page.goto(live_server.url + reverse("night-story", args=[campaign.pk, 2]))
    page.click("#share form button[type=submit]")  # shared: the page says so in a message
    page.wait_for_selector("ul.messages li.success")
    found["a story just shared"] = read(page)
    return found


@pytest.mark.usefixtures("pseudo_language")
class PseudoCampaignWalkTests:
    def test_no_campaign_page_shows_a_word_outside_a_wrapped_message(self, live_server, new_page):
        campaign, sticker, games, invitation, link, abandoned, night = walk_campaign()
        found = {}
        owner = new_page(PHONE, locale="en-XA")
        login(owner, live_server, OWNER)
        owner.wait_for_selector(f".topbar >> text={OWNER}")
        more = other_campaigns(campaign.created_by)
        for name, url in {**owner_pages(campaign, sticker, games, abandoned, night), **more}.items():
            found[f"owner: {name}"] = read(owner, live_server.url + url)
        found.update(refusals(owner, live_server, campaign, sticker))
        player = new_page(PHONE, locale="en-XA")
        login(player, live_server, PLAYER)
        player.wait_for_selector(f".topbar >> text={PLAYER}")
        for name, url in member_pages(campaign, games).items():
            found[f"player: {name}"] = read(player, live_server.url + url)
        stranger = new_page(PHONE, locale="en-XA")
        found["invitation"] = read(stranger, live_server.url + reverse("invitation", args=[invitation.token]))
        found["shared story"] = read(stranger, live_server.url + reverse("shared-story", args=[link.token]))
        unwrapped = {name: words_outside(rest) for name, rest in found.items()}
        outside = {name: " ".join(words) for name, words in unwrapped.items() if words}
        assert outside == {}, "\n".join(f"{name}: {words}" for name, words in outside.items())

    def test_the_walk_finds_a_word_nobody_marked_on_a_campaign_page(self, live_server, new_page):
        campaign, sticker, games, *_ = walk_campaign()
        page = new_page(PHONE, locale="en-XA")
        login(page, live_server, OWNER)
        page.wait_for_selector(f".topbar >> text={OWNER}")
        page.goto(
            live_server.url + reverse("campaign-history", args=[campaign.pk]) + f"?sticker={sticker.number}"
        )
        assert words_outside(read(page)) == []
        page.evaluate("document.querySelector('h1').append(' Who signed it')")
        assert words_outside(read(page)) == ["Who", "signed", "it"]
