"""The King's Dilemma table: the host types the front of the card at the draw, the winning side's
outcome from its back after the vote (docs/rules-decisions.md), and hand-applied effects; forms keep what
was typed when something is refused."""

import re

import pytest
from django.urls import reverse

from campaign.services import game_nights
from games.presenters.kings_dilemma_forms import HOUSES_NEEDED, MOVE_WITHOUT_ROW, TITLE_NEEDED
from tests.factories import campaign_with_houses
from tests.kings_dilemma_play import draft, vote_as, vote_through

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(user):
    campaign, houses = campaign_with_houses("Anna", "Ben", "Cora", user=user)
    session = game_nights.game_night_start(
        campaign=campaign, houses=houses, king_name="Harald V", host=user, seed=5
    )
    draft(session)
    return session


def to_outcome(client, session):
    response = compose(client, session, compose="draw", number=12, title="Bread taxes", aye_wealth="down")
    assert response.status_code == 200
    vote_through(session, "aye")
    session.refresh_from_db()
    assert session.state["phase"] == "outcome"


def to_resolution(client, session):
    to_outcome(client, session)
    response = compose(
        client, session, compose="outcome", move_1_row="wealth", move_1_amount=-1, keep_open="on"
    )
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.state["phase"] == "resolution"


def compose(client, session, **data):
    session.refresh_from_db()
    url = reverse("games:session_table_compose", args=[session.pk])
    return client.post(url, {"version": session.version, **data}, headers={"HX-Request": "true"})


def seat_page(client, session, index):
    seat = session.seats.get(index=index)
    return client.get(reverse("games:seat_page", args=[seat.token])).content.decode()


class DrawTests:
    def test_the_host_types_the_front_and_the_vote_begins(self, client, user, night):
        client.force_login(user)
        page = client.get(reverse("games:session_table", args=[night.pk])).content.decode()
        assert "Draw a Dilemma card" in page
        response = compose(
            client,
            night,
            compose="draw",
            number=12,
            title="Bread taxes",
            question="Shall the Crown cut the tax on bread?",
            aye_wealth="down",
            nay_welfare="down",
            nay_sticker="negative",
        )
        assert response.status_code == 200
        night.refresh_from_db()
        front = night.state["card"]["front"]
        assert front["aye"] == {"resources": [["wealth", "down"]], "sticker": None}
        assert front["nay"] == {"resources": [["welfare", "down"]], "sticker": "negative"}
        assert night.state["phase"] == "voting"
        phone = seat_page(client, night, 0)
        assert "Bread taxes" in phone and "Shall the Crown cut the tax on bread?" in phone
        assert "Negative Chronicle sticker" in phone and "Welfare ▼ down" in phone

    def test_a_refused_front_keeps_every_field_and_says_why(self, client, user, night):
        client.force_login(user)
        version = night.version
        response = compose(
            client, night, compose="draw", number=12, title="", aye_wealth="down", question="Why?"
        )
        assert response.status_code == 422
        page = response.content.decode()
        assert TITLE_NEEDED.format(number=12) in page
        assert 'value="Why?"' in page and re.search(r'name="aye_wealth" value="down"[^>]*checked', page)
        night.refresh_from_db()
        assert night.version == version

    def test_a_card_number_beyond_the_box_is_refused_beside_the_field(self, client, user, night):
        client.force_login(user)
        response = compose(client, night, compose="draw", number=10**6, title="x")
        assert response.status_code == 422
        assert "less than or equal to 999" in response.content.decode()


class OutcomeTests:
    def test_the_back_is_typed_after_the_vote_and_applied(self, client, user, night):
        client.force_login(user)
        to_outcome(client, night)
        page = client.get(reverse("games:session_table", args=[night.pk])).content.decode()
        assert "Turn the card over: the AYE outcome" in page
        wealth = night.state["resources"]["wealth"]["position"]
        response = compose(
            client,
            night,
            compose="outcome",
            move_1_row="wealth",
            move_1_amount=-2,
            sticker=43,
            sticker_row="welfare",
            sticker_positive="0",
            envelope=9,
            keep_open="on",
        )
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.state["resources"]["wealth"]["position"] < wealth
        assert night.state["phase"] == "resolution"  # kept open for effects by hand
        assert night.state["stickers"][0]["number"] == 43
        assert night.state["envelopes"][0]["number"] == 9
        assert "Envelope 09" in seat_page(client, night, 1)

    def test_an_empty_outcome_is_refused_and_a_typo_keeps_the_fields(self, client, user, night):
        client.force_login(user)
        to_outcome(client, night)
        empty = compose(client, night, compose="outcome")
        assert empty.status_code == 422 and "This outcome has nothing in it" in empty.content.decode()
        typo = compose(client, night, compose="outcome", move_2_amount=2, note="A feast")
        assert typo.status_code == 422
        page = typo.content.decode()
        assert str(MOVE_WITHOUT_ROW) in page and 'value="A feast"' in page
        assert re.search(r'name="move_2_amount" value="2"', page)
        night.refresh_from_db()
        assert night.state["phase"] == "outcome"


class CardEffectFormTests:
    def test_the_host_gives_coins_by_hand_with_a_label(self, client, user, night):
        client.force_login(user)
        to_resolution(client, night)
        coins_before = night.state["seats"][1]["coins"]
        response = compose(
            client,
            night,
            compose="effect",
            kind="adjust",
            label="Tax rebate",
            target=1,
            what="coins",
            amount=2,
        )
        assert response.status_code == 200, re.findall(
            r"notice\" role=\"\w+\">([^<]*)", response.content.decode()
        )
        night.refresh_from_db()
        assert night.state["seats"][1]["coins"] == coins_before + 2
        assert "Tax rebate" in night.actions.order_by("-seq").first().label

    def test_missing_fields_are_named(self, client, user, night):
        client.force_login(user)
        to_resolution(client, night)
        response = compose(client, night, compose="effect", kind="move_resource", label="Drought")
        assert response.status_code == 422 and "Needed for this effect." in response.content.decode()


def to_resolution_after_nay(client, session):
    """Ben and Cora vote NAY (2 and 1 Power), Anna AYE with 1: NAY wins, the card is kept open."""
    response = compose(client, session, compose="draw", number=12, title="Bread taxes", aye_wealth="down")
    assert response.status_code == 200
    vote_as(session, {0: ("aye", 1), 1: ("nay", 2), 2: ("nay", 1)})
    response = compose(
        client, session, compose="outcome", move_1_row="wealth", move_1_amount=1, keep_open="on"
    )
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.state["phase"] == "resolution"


# "Each House that voted NAY pays 1 Coin", as the host applies it.
NAY_PAYS = {
    "compose": "effect",
    "kind": "adjust",
    "label": "NAY pays",
    "voters": "nay",
    "what": "coins",
    "amount": -1,
}


class SeveralHousesEffectTests:
    """A printed effect on several Houses ("each House that voted NAY pays 1 Coin"): one Apply, one
    logged action naming the Houses; the form then stays open with what it held."""

    def test_every_nay_voter_pays_in_one_action(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        page = client.get(reverse("games:session_table", args=[night.pk])).content.decode()
        assert "Every NAY voter (Ben, Cora)" in page and "Every AYE voter (Anna)" in page
        coins = [s["coins"] for s in night.state["seats"]]
        actions = night.actions.count()
        response = compose(client, night, **NAY_PAYS)
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.actions.count() == actions + 1
        last = night.actions.order_by("-seq").first()
        assert last.payload["target"] == [1, 2]
        assert last.label.splitlines()[0] == "The table took 1 Coin from each of Ben and Cora (NAY pays)."
        assert [s["coins"] for s in night.state["seats"]] == [coins[0], coins[1] - 1, coins[2] - 1]

    def test_houses_ticked_and_voters_are_named_once_each(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        response = compose(
            client,
            night,
            compose="effect",
            kind="adjust",
            label="Feast",
            target=["0", "2"],
            voters="nay",
            what="prestige",
            amount=1,
        )
        assert response.status_code == 200
        night.refresh_from_db()
        assert night.actions.order_by("-seq").first().payload["target"] == [0, 1, 2]

    def test_no_house_is_refused_beside_the_houses(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        response = compose(client, night, compose="effect", kind="adjust", label="x", what="coins", amount=1)
        assert response.status_code == 422 and str(HOUSES_NEEDED) in response.content.decode()

    def test_the_form_stays_open_with_what_it_held_after_apply(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        response = compose(client, night, **NAY_PAYS, key="first-apply")
        page = response.content.decode()
        assert response.status_code == 200
        assert re.search(r'<details class="card kd-effect" open>', page)
        assert 'name="label" value="NAY pays"' in page
        assert re.search(r'<option value="adjust" selected>', page)
        assert re.search(r'<option value="coins" selected>', page)
        assert re.search(r'name="amount" value="-1"', page)
        assert re.search(r'name="voters" value="nay"[^>]*checked', page)
        # A fresh key: applying again is a second effect, never a repeat of the first.
        keys = re.findall(r'name="key" value="([^"]+)"', page)
        assert keys and "first-apply" not in keys

    def test_after_the_card_is_placed_nothing_is_kept(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        response = compose(client, night, compose="effect", kind="to_event_area", label="An Event")
        assert response.status_code == 200
        assert '<details class="card kd-effect" open>' not in response.content.decode()


def compose_without_script(client, session, **data):
    """The same forms posted by a browser without JavaScript (no htmx): a whole page comes back."""
    session.refresh_from_db()
    url = reverse("games:session_table_compose", args=[session.pk])
    return client.post(url, {"version": session.version, **data})


class WithoutScriptTests:
    """A host's browser without JavaScript gets the same forms back as a whole page: an applied
    effect keeps the form open with what it held, a refusal keeps what was typed."""

    def test_an_applied_effect_keeps_its_form_open_and_a_reload_applies_it_once(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        actions = night.actions.count()
        response = compose_without_script(client, night, **NAY_PAYS, key="no-script-apply")
        page = response.content.decode()
        assert response.status_code == 200 and "<html" in page
        assert "Done: The table took 1 Coin from each of Ben and Cora (NAY pays)." in page  # the message
        assert re.search(r'<details class="card kd-effect" open>', page)
        assert 'name="label" value="NAY pays"' in page and re.search(r'name="amount" value="-1"', page)
        night.refresh_from_db()
        assert night.actions.count() == actions + 1
        again = client.post(
            reverse("games:session_table_compose", args=[night.pk]),
            {"version": night.version - 1, **NAY_PAYS, "key": "no-script-apply"},
        )  # the browser's reload: the same form, the same key
        assert again.status_code == 200
        night.refresh_from_db()
        assert night.actions.count() == actions + 1

    def test_a_refused_effect_keeps_what_was_typed(self, client, user, night):
        client.force_login(user)
        to_resolution_after_nay(client, night)
        actions = night.actions.count()
        response = compose_without_script(
            client, night, compose="effect", kind="adjust", label="Feast", what="coins", amount=3
        )
        page = response.content.decode()
        assert response.status_code == 422 and "<html" in page
        assert str(HOUSES_NEEDED) in page
        assert 'name="label" value="Feast"' in page and re.search(r'name="amount" value="3"', page)
        night.refresh_from_db()
        assert night.actions.count() == actions

    def test_a_front_typed_without_a_script_goes_to_the_table_page(self, client, user, night):
        client.force_login(user)
        response = compose_without_script(
            client, night, compose="draw", number=12, title="Bread taxes", aye_wealth="down"
        )
        assert response.status_code == 302 and response["Location"].endswith(f"/play/s/{night.pk}/")
