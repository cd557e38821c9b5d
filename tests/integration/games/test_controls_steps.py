"""Issue 17 item 2: the phone asks a Council of Four decision step by step (the Council, the Permit,
the payment; the Queen's city, the payment) and For the King pays several Gold cards in one submit.
The steps are plain GET links on the seat page (htmx swaps the panel with the same links); the last
step posts the action; a bad value shows its sentence and changes nothing."""

import html
import json
import random
import re
from urllib.parse import parse_qsl

import pytest
from django.urls import reverse

from games.engines.council_of_four.board import CARDS as C4_CARDS
from games.engines.council_of_four.board import JOKER
from games.engines.council_of_four.payments import payment_cost, road_coins
from games.engines.for_the_king import messages as ftk_msg
from games.engines.for_the_king.cards import CARDS as FTK_CARDS
from games.engines.for_the_king.cards import GOLD, kind
from games.engines.kernel.errors import RuleError
from games.engines.kernel.registry import get_game
from games.models import GameSession
from games.presenters.base import (
    POST_CARDS,
    POST_NOT_A_CHOICE,
    POST_PAYMENT,
    POST_PICK,
    action_from_post,
)
from games.presenters.council_of_four_steps import MAX_OFFERS, STEP_GONE
from games.services.sessions import session_create
from games.services.taps import session_submit_action
from tests.integration.games.conftest import play, random_move

pytestmark = pytest.mark.django_db

RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bseat \d|\bside (aye|nay)\b", re.I)
TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
HTMX = {"HX-Request": "true"}
C4 = get_game("council_of_four")
FTK = get_game("for_the_king")


def visible(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(TAGS.sub(" ", response.content.decode())))


def actions_text(response) -> str:
    """The visible words of the phone's decision (the actions card)."""
    text = visible(response)
    return text.split("What you can do", 1)[1].split("Your Politics cards", 1)[0]


def c4_turn(seed: int = 3):
    """A two-player Council of Four session whose current player has drawn (by itself, with the
    deal): (session, seat)."""
    session = session_create(game="council_of_four", seat_names=["Anna", "Ben"], seed=seed)
    seat = session.seats.get(index=session.state["current"])
    return session, seat


def page(client, seat, **query):
    url = reverse("games:seat_page", args=[seat.token])
    response = client.get(url, query, headers=HTMX)
    assert response.status_code == 200
    text = visible(response)
    assert not RAW.search(text), RAW.search(text).group(0)
    return response


def step_links(response) -> list[str]:
    """The hrefs of the step links (with the values they carry)."""
    return [
        html.unescape(h) for h in re.findall(r'class="step-link" href="([^"]+)"', response.content.decode())
    ]


def offer_forms(response) -> list[dict[str, list[str]]]:
    """Each payment offer's posted fields."""
    forms = []
    for body in re.findall(r'<form[^>]*class="offer">(.*?)</form>', response.content.decode(), re.S):
        fields: dict[str, list[str]] = {}
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', body):
            fields.setdefault(name, []).append(html.unescape(value))
        forms.append(fields)
    return forms


def post(client, seat, fields: dict) -> object:
    url = reverse("games:seat_page", args=[seat.token])
    return client.post(url, fields, headers=HTMX)


class ActionFromPostTests:
    CHOICES = [
        {
            "type": "acquire_permit",
            "seat": 0,
            "params": {
                "balcony": {"kind": "pick", "options": [region]},
                "permit": {"kind": "pick", "options": permits},
                "cards": {"kind": "cards", "options": ["P01", "P02", "P80"], "min": 1, "max": 4},
            },
        }
        for region, permits in (("coast", ["C01", "C02"]), ("hills", ["H01", "H02"]))
    ]

    def fields(self, **values):
        posted = {f"p_{k}": v if isinstance(v, list) else [v] for k, v in values.items()}
        return lambda name: posted.get(name, [])

    def test_the_choice_of_the_posted_council_is_read_when_several_share_a_type(self):
        got = action_from_post(
            self.CHOICES,
            "acquire_permit",
            self.fields(balcony='"hills"', permit='"H02"', cards=['"P01"', '"P80"']),
        )
        assert got == {
            "type": "acquire_permit",
            "seat": 0,
            "balcony": "hills",
            "permit": "H02",
            "cards": ["P01", "P80"],
        }

    def test_a_permit_of_another_council_is_refused_with_a_sentence(self):
        with pytest.raises(ValueError, match=re.escape(str(POST_PICK))):
            action_from_post(
                self.CHOICES, "acquire_permit", self.fields(balcony='"hills"', permit='"C01"', cards='"P01"')
            )

    def test_cards_not_offered_or_twice_are_refused(self):
        message = POST_CARDS.format(low=1, high=4)
        for cards in (['"P01"', '"P01"'], ['"P55"'], []):
            with pytest.raises(ValueError, match=re.escape(message)):
                action_from_post(
                    self.CHOICES,
                    "acquire_permit",
                    self.fields(balcony='"coast"', permit='"C01"', cards=cards),
                )

    def test_an_unknown_choice_is_refused(self):
        with pytest.raises(ValueError, match=re.escape(str(POST_NOT_A_CHOICE))):
            action_from_post(self.CHOICES, "queen_build", self.fields())


class AcquirePermitStepsTests:
    def test_the_menu_offers_each_council_the_seat_can_satisfy(self, client):
        session, seat = c4_turn()
        councils = [
            c["params"]["balcony"]["options"][0]
            for c in C4.legal_actions(session.state, seat.index)
            if c["type"] == "acquire_permit"
        ]
        assert councils
        links = [h for h in step_links(page(client, seat)) if "step=acquire_permit" in h]
        assert links == [f"/play/seat/{seat.token}/?step=acquire_permit&balcony={b}" for b in councils]

    def test_then_the_face_up_permits_of_that_council(self, client):
        session, seat = c4_turn()
        balcony = "coast"
        response = page(client, seat, step="acquire_permit", balcony=balcony)
        permits = session.state["face_up"][balcony]
        assert [h.rsplit("permit=", 1)[1] for h in step_links(response)] == permits
        assert "Coast Balcony: " + ", ".join(session.state["balconies"][balcony]) in actions_text(response)

    @pytest.mark.parametrize("balcony", ["coast", "hills", "mountains"])
    def test_then_only_affordable_payments_the_cheapest_first_each_with_its_price(self, client, balcony):
        session, seat = c4_turn()
        permit = session.state["face_up"][balcony][0]
        response = page(client, seat, step="acquire_permit", balcony=balcony, permit=permit)
        forms = offer_forms(response)
        coins = session.state["seats"][seat.index]["coins"]
        assert 1 <= len(forms) <= MAX_OFFERS  # one screen, never dozens of combinations
        prices = []
        for fields in forms:
            assert (
                json.loads(fields["p_balcony"][0]) == balcony and json.loads(fields["p_permit"][0]) == permit
            )
            cards = [json.loads(c) for c in fields["p_cards"]]
            prices.append(payment_cost(session.state, seat.index, balcony, cards))
        assert prices == sorted(prices) and prices[-1] <= coins
        shown = re.findall(r'<strong class="offer-coins">(\d+) Coins?</strong>', response.content.decode())
        assert [int(n) for n in shown] == prices

    def test_many_ways_to_pay_are_shown_by_number_of_cards(self, client):
        session, seat = c4_turn()
        response = page(
            client, seat, step="acquire_permit", balcony="hills", permit=session.state["face_up"]["hills"][0]
        )
        text = actions_text(response)
        assert "4 cards from 0 Coins" in text and "1 card from 10 Coins" in text
        three = page(
            client,
            seat,
            step="acquire_permit",
            balcony="hills",
            permit=session.state["face_up"]["hills"][0],
            n="3",
        )
        assert {len(f["p_cards"]) for f in offer_forms(three)} == {3}

    def test_tapping_a_payment_acquires_the_permit_for_the_price_shown(self, client):
        session, seat = c4_turn()
        permit = session.state["face_up"]["hills"][0]
        response = page(client, seat, step="acquire_permit", balcony="hills", permit=permit)
        fields = offer_forms(response)[0]
        coins = session.state["seats"][seat.index]["coins"]
        price = payment_cost(session.state, seat.index, "hills", [json.loads(c) for c in fields["p_cards"]])
        answer = post(
            client, seat, {"choice": "acquire_permit", "version": session.version, "key": "k1", **fields}
        )
        assert answer.status_code == 200
        session.refresh_from_db()
        mine = session.state["seats"][seat.index]
        assert [p["id"] for p in mine["permits"]] == [permit]
        assert mine["coins"] == coins - price

    def test_cards_the_council_refuses_show_why_and_change_nothing(self, client):
        session, seat = c4_turn()
        version = session.version
        council = session.state["balconies"]["coast"]
        wrong = [
            c for c in session.state["seats"][seat.index]["hand"] if C4_CARDS[c] not in (*council, JOKER)
        ]
        assert wrong
        fields = {
            "choice": "acquire_permit",
            "version": version,
            "p_balcony": json.dumps("coast"),
            "p_permit": json.dumps(session.state["face_up"]["coast"][0]),
            "p_cards": [json.dumps(wrong[0])],
        }
        answer = post(client, seat, fields)
        assert answer.status_code == 422 and str(POST_PAYMENT) in visible(answer)  # not a payment offered
        session.refresh_from_db()
        assert session.version == version

    def test_a_payment_beyond_the_coins_is_not_offered(self, client):
        """MAIN ACTION 2: 1 card costs 10 Coins, a Joker 1 more: 11 Coins with 10 or fewer is not
        among the payments offered (issue 29: choices that never lie)."""
        session, seat = c4_turn()
        state = session.state
        coins = state["seats"][seat.index]["coins"]
        joker = next(c for c in state["seats"][seat.index]["hand"] if C4_CARDS[c] == JOKER)
        assert coins < 11
        version = session.version
        fields = {
            "choice": "acquire_permit",
            "version": version,
            "p_balcony": json.dumps("coast"),
            "p_permit": json.dumps(state["face_up"]["coast"][0]),
            "p_cards": [json.dumps(joker)],
        }
        answer = post(client, seat, fields)
        assert answer.status_code == 422
        assert str(POST_PAYMENT) in visible(answer)
        session.refresh_from_db()
        assert session.version == version

    def test_a_step_no_longer_offered_says_so_and_shows_the_actions(self, client):
        session, seat = c4_turn()
        for query in (
            {"step": "acquire_permit", "balcony": "nowhere"},
            {"step": "acquire_permit", "balcony": "coast", "permit": "Z9"},
            {"step": "take_over"},
        ):
            text = actions_text(page(client, seat, **query))
            assert str(STEP_GONE) in text and "Main action" in text

    def test_the_other_seat_sees_no_step_and_no_hand(self, client):
        session, seat = c4_turn()
        other = session.seats.exclude(pk=seat.pk).get()
        response = page(client, other, step="acquire_permit", balcony="coast")
        assert offer_forms(response) == [] and step_links(response) == []
        mine = session.state["seats"][seat.index]["hand"]
        assert not any(f'data-card="{c}"' in response.content.decode() for c in mine)


class QueenStepsTests:
    def test_the_cities_offered_with_the_roads_from_the_queen(self, client):
        session, seat = c4_turn()
        choices = [c for c in C4.legal_actions(session.state, seat.index) if c["type"] == "queen_build"]
        response = page(client, seat, step="queen_build")
        cities = [h.rsplit("city=", 1)[1] for h in step_links(response)]
        assert sorted(cities) == sorted(c["params"]["city"]["options"][0] for c in choices)
        text = actions_text(response)
        assert "Juvelar the Queen stays" in text
        assert "Arkon 4 roads: 8 Coins" in text

    def test_tapping_a_city_then_a_payment_places_the_merchant(self, client):
        session, seat = c4_turn()
        response = page(client, seat, step="queen_build", city="G")
        assert "The Queen travels 1 road from Juvelar to Graden: 2 Coins." in actions_text(response)
        fields = offer_forms(response)[0]
        coins = session.state["seats"][seat.index]["coins"]
        price = (
            payment_cost(session.state, seat.index, "queen", [json.loads(c) for c in fields["p_cards"]]) + 2
        )
        assert f"{price} Coins (2 for the roads)" in actions_text(response)
        assert (
            post(client, seat, {"choice": "queen_build", "version": session.version, **fields}).status_code
            == 200
        )
        session.refresh_from_db()
        assert session.state["queen"] == "G" and seat.index in session.state["merchants"]["G"]
        assert session.state["seats"][seat.index]["coins"] == coins - price

    def test_a_city_out_of_reach_is_refused_with_a_sentence(self, client):
        session, seat = c4_turn()
        version = session.version
        answer = post(
            client,
            seat,
            {
                "choice": "queen_build",
                "version": version,
                "p_city": json.dumps("Atlantis"),
                "p_cards": json.dumps("P01"),
            },
        )
        assert answer.status_code == 422 and str(POST_PICK) in visible(answer)
        session.refresh_from_db()
        assert session.version == version


def ftk_payment(seed: int = 4) -> tuple[GameSession, object]:
    """A For the King session where a player won a Favor card with a bid that several Gold cards
    must pay: bids are made by hand, every other decision by the seeded bots."""
    session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        state = session.state
        if state.get("phase") == "pay_gold":
            payer = session.seats.get(index=state["payment"]["seat"])
            return session, payer
        seat, action = random_move(session, rng)
        if state.get("phase") == "bidding":
            golds = sorted(
                FTK_CARDS[c]["value"] for c in state["seats"][seat.index]["hand"] if kind(c) == GOLD
            )
            high = state["bidding"]["high_bid"]
            wants = sum(golds)
            if len(golds) >= 2 and wants > max(golds) and high < wants and kind(state["offer"]) != GOLD:
                action = {"type": "bid", "seat": seat.index, "amount": wants}
            else:
                action = {"type": "pass", "seat": seat.index}
        session_submit_action(session=session, seat=seat, action=action, expected_version=session.version)
        session.refresh_from_db()
    raise AssertionError("no payment of several Gold cards in 2000 actions")


class GoldPaymentTests:
    def test_each_payment_offered_is_a_button_with_its_gold(self, client):
        """DESIGN 8, Paying Gold: one button per set that reaches the bid without overpaying."""
        session, payer = ftk_payment()
        response = page(client, payer)
        [pay] = FTK.legal_actions(session.state, payer.index)
        shown = offer_forms(response)
        assert [sorted(f["p_cards"]) for f in shown] == [
            sorted(json.dumps(c) for c in o["cards"]) for o in pay["params"]["cards"]["options"]
        ]
        owed = session.state["payment"]["owed"]
        text = visible(response)
        assert f"Pay {owed} Gold" in text
        assert all(f"{o['coins']} Gold" in text for o in pay["params"]["cards"]["options"])

    def test_several_gold_cards_pay_in_one_submit(self, client):
        session, payer = ftk_payment()
        owed = session.state["payment"]["owed"]
        golds = [c for c in session.state["seats"][payer.index]["hand"] if kind(c) == GOLD]
        assert sum(FTK_CARDS[c]["value"] for c in golds) == owed and len(golds) >= 2
        version = session.version
        answer = post(
            client,
            payer,
            {"choice": "pay_gold", "version": version, "p_cards": [json.dumps(c) for c in golds]},
        )
        assert answer.status_code == 200
        session.refresh_from_db()
        assert session.version == version + 1
        assert not any(c in session.state["seats"][payer.index]["hand"] for c in golds)
        assert all(c in session.state["discard"] for c in golds)

    def test_too_little_gold_shows_why_and_changes_nothing(self, client):
        session, payer = ftk_payment()
        golds = sorted(c for c in session.state["seats"][payer.index]["hand"] if kind(c) == GOLD)
        version = session.version
        answer = post(
            client, payer, {"choice": "pay_gold", "version": version, "p_cards": [json.dumps(golds[0])]}
        )
        assert answer.status_code == 422
        assert str(POST_PAYMENT) in visible(answer)  # every Gold card is needed: not a payment offered
        session.refresh_from_db()
        assert session.version == version and golds[0] in session.state["seats"][payer.index]["hand"]

    def test_the_rules_refuse_what_the_form_cannot_know(self):
        """DESIGN 8, Paying Gold: the set must reach the bid; the engine says so (the form only
        bounds the number of cards)."""
        session, payer = ftk_payment()
        state = session.state
        golds = sorted(c for c in state["seats"][payer.index]["hand"] if kind(c) == GOLD)
        with pytest.raises(RuleError) as refused:
            FTK.apply(state, {"type": "pay_gold", "seat": payer.index, "cards": golds[:1]})
        assert refused.value.message == ftk_msg.PAY_NOT_ENOUGH.format(owed=state["payment"]["owed"])


class EveryStepTests:
    """Every step reachable from the phone of the acting player, in random states of random games:
    it answers, in words, and each payment it offers is one the rules accept for what it shows."""

    @pytest.mark.parametrize("seed", [1, 3, 5])
    def test_every_step_of_random_states(self, client, seed):
        session = session_create(game="council_of_four", seat_names=["Anna", "Ben"], seed=seed)
        rng = random.Random(seed)
        steps = offers = 0
        for _ in range(5):
            play(session, rng, rng.randint(4, 14))
            session.refresh_from_db()
            if session.state["over"]:
                break
            index = C4.view(session.state, None)["to_act"][0]
            seat = session.seats.get(index=index)
            coins = session.state["seats"][index]["coins"]
            seen, queue = set(), ["?"]
            while queue:
                query = queue.pop()
                if query in seen:
                    continue
                seen.add(query)
                response = page(client, seat, **dict(parse_qsl(query.lstrip("?"))))
                body = response.content.decode()
                assert str(STEP_GONE) not in body, query
                queue += [h.split("/", 4)[-1].lstrip("/") or "?" for h in step_links(response)]
                queue += [html.unescape(t) for t in re.findall(r'<a href="[^"?]*(\?[^"]*)"[^>]*hx-get', body)]
                steps += 1
                for fields in offer_forms(response):
                    offers += 1
                    kind = "queen" if "p_city" in fields else json.loads(fields["p_balcony"][0])
                    cards = [json.loads(c) for c in fields["p_cards"]]
                    price = payment_cost(session.state, index, kind, cards)
                    if kind == "queen":
                        price += road_coins(session.state["queen"], json.loads(fields["p_city"][0]))
                    assert price <= coins, (query, cards, price, coins)
        assert steps > 10 and offers > 0, (steps, offers)  # the walk reached the payments


class WithoutJavaScriptTests:
    def test_the_steps_are_plain_links_and_the_payment_a_plain_form(self, client):
        session, seat = c4_turn()
        url = reverse("games:seat_page", args=[seat.token])
        permit = session.state["face_up"]["hills"][0]
        full = client.get(url, {"step": "acquire_permit", "balcony": "hills", "permit": permit})
        assert full.status_code == 200 and "<html" in full.content.decode()
        fields = offer_forms(full)[0]
        answer = client.post(url, {"choice": "acquire_permit", "version": session.version, **fields})
        assert answer.status_code == 302 and answer.url == url
        session.refresh_from_db()
        assert [p["id"] for p in session.state["seats"][seat.index]["permits"]] == [permit]
