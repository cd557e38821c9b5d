"""Bots (games/engines/kernel/bots.py and each game's bot.py): the policy hook, whole games played by bots to
the end, and the promises of each policy (the For the King bot bids within its means, pays no more
than needed and beats a random player; the King's Dilemma bot never gives Coins away)."""

import random

import pytest

from games.engines.for_the_king import bot as ftk_bot
from games.engines.for_the_king.cards import CARDS, GOLD, gold_value, kind
from games.engines.for_the_king.esteem import gold_payments
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import choice, draw_action
from games.engines.kernel.registry import get_game
from games.engines.kernel.rules import TABLE
from games.engines.kings_dilemma import bot as kd_bot

STEP_CAP = 3000
SEEDS = range(30)


def random_player(rules, state, seat, rng):
    """The random bot: any legal action but the excluded ones (the hook without a policy)."""
    choices = [c for c in rules.legal_actions(state, seat) if c["type"] not in rules.bot_excluded]
    return draw_action(rules, state, rng.choice(choices), rng) if choices else None


def play(rules, config, seed, *, bots, table_pick=None, watch=None, cap=STEP_CAP):
    """Play a game: the table (random, or ``table_pick``), then the first seat with something to do,
    ``bots`` with ``bot_choose_action`` and the others at random, as ``session_bot_move`` does.
    ``watch(state, seat, action)`` sees every seat's action before it applies. Returns the state."""
    state = rules.setup(config, seed)
    for step in range(cap):
        if rules.is_over(state):
            return state
        rng = random.Random(f"{seed}:{step}:bot")
        action = None
        table_actions = rules.legal_actions(state, TABLE)
        if table_actions:
            pick_ = table_pick or (lambda s, a, r: draw_action(rules, s, r.choice(a), r))
            action = pick_(state, table_actions, rng)
        else:
            for seat in range(len(state["seats"])):
                player = bot_choose_action if seat in bots else random_player
                action = player(rules, state, seat, rng)
                if action is not None:
                    if watch:
                        watch(state, seat, action)
                    break
        assert action is not None, f"nobody can act at step {step}"
        state = rules.apply(state, action)
    raise AssertionError(f"the game did not end within {cap} steps")


def seats(count: int) -> dict:
    return {"seats": [{"name": f"Seat {i}"} for i in range(count)]}


# ---- the hook ------------------------------------------------------------------------------


class FakeRules:
    """The hooks a bot reads, as ``GameRules`` declares them."""

    bot_excluded = frozenset({"gift"})
    bot_policy = None
    sample = None

    def __init__(self, actions, policy=None):
        self.actions = actions
        if policy is not None:
            self.bot_policy = policy

    def legal_actions(self, state, seat):
        return list(self.actions)


ACTIONS = [choice("a", 0), choice("b", 0), choice("gift", 0)]


def concrete(c):
    return {"type": c["type"], "seat": c["seat"]}


class BotChooseActionTests:
    def test_without_a_policy_it_picks_a_legal_action_never_an_excluded_one(self):
        picks = {bot_choose_action(FakeRules(ACTIONS), {}, 0, random.Random(i))["type"] for i in range(50)}
        assert picks == {"a", "b"}

    def test_the_choice_depends_only_on_the_rng(self):
        rules = FakeRules(ACTIONS)
        first = [bot_choose_action(rules, {}, 0, random.Random(s)) for s in range(20)]
        again = [bot_choose_action(rules, {}, 0, random.Random(s)) for s in range(20)]
        assert first == again

    def test_a_policy_is_used_and_sees_only_the_allowed_actions(self):
        seen = []

        def policy(state, seat, choices, rng):
            seen.append(choices)
            return concrete(choices[-1])

        assert bot_choose_action(FakeRules(ACTIONS, policy), {}, 0, random.Random(1)) == concrete(ACTIONS[1])
        assert seen == [ACTIONS[:2]]

    @pytest.mark.parametrize("answer", [None, {"type": "gift", "seat": 0}, {"type": "z", "seat": 0}])
    def test_an_answer_that_is_not_an_allowed_action_falls_back_to_a_random_one(self, answer):
        rules = FakeRules(ACTIONS, lambda state, seat, actions, rng: answer)
        assert bot_choose_action(rules, {}, 0, random.Random(1)) in [concrete(a) for a in ACTIONS[:2]]

    def test_nothing_to_do_is_none(self):
        assert bot_choose_action(FakeRules([ACTIONS[2]]), {}, 0, random.Random(1)) is None

    @pytest.mark.parametrize("slug", ["for_the_king", "kings_dilemma", "council_of_four"])
    def test_every_game_has_a_policy(self, slug):
        assert callable(get_game(slug).bot_policy)


# ---- For the King (and Me) -------------------------------------------------------------------

FTK = get_game("for_the_king")


def ftk_promises(state, seat, action):
    """The bot bids within its means and pays the least Gold that reaches its bid."""
    hand = state["seats"][seat]["hand"]
    if action["type"] == "bid":
        means = len(hand) if kind(state["offer"]) == GOLD else gold_value(hand)
        assert action["amount"] <= means, (action, means)
    if action["type"] == "pay_gold":
        options = gold_payments(hand, state["payment"]["owed"])
        least = min(gold_value(o) for o in options)
        assert gold_value(action["cards"]) == least
        fewest = min(len(o) for o in options if gold_value(o) == least)
        assert len(action["cards"]) == fewest


class ForTheKingBotTests:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_bots_play_whole_games_and_keep_their_promises(self, seed):
        count = 2 + seed % 4
        state = play(FTK, seats(count), seed, bots=set(range(count)), watch=ftk_promises)
        assert state["result"]["winners"]

    def test_a_bot_never_wins_a_bid_it_cannot_pay(self):
        def watch(state, seat, action):
            assert state["phase"] != "cannot_pay"

        for seed in range(10):
            play(FTK, seats(2 + seed % 4), seed, bots={0, 1, 2, 3, 4}, watch=watch)

    @pytest.mark.parametrize(("count", "at_least"), [(2, 30), (3, 24)])
    def test_the_bot_beats_random_players(self, count, at_least):
        """40 games against random players, the bot's seat turning. Chance would give it 20 wins of
        40 heads-up and about 13 at three; it won all 40 in both when this was written (and 100 of
        100 over more seeds), so 30 and 24 leave a wide margin for changes of the engine while
        still meaning "clearly better than random"."""
        wins = 0
        for seed in range(40):
            me = seed % count

            def watch(state, seat, action, me=me):
                if seat == me:
                    ftk_promises(state, seat, action)

            state = play(FTK, seats(count), 1000 + seed, bots={me}, watch=watch)
            wins += me in state["result"]["winners"]
        assert wins >= at_least, wins

    def test_as_adviser_it_keeps_a_strong_card_and_gives_a_weak_one(self):
        state = FTK.apply(FTK.setup(seats(3), 5), {"type": "deal", "seat": None})
        adviser = state["adviser"]
        state["placed"] = {"personal": 0, "middle": 0, "favor": 0}
        state["drawn"] = "c001"  # Diplomacy 2
        weak = next(c for c in state["deck"] if kind(c) == "government" and CARDS[c]["value"] == 1)
        strong = next(c for c in state["deck"] if kind(c) == "government" and CARDS[c]["value"] == 4)
        options = FTK.legal_actions(state, adviser)
        state["drawn"] = strong
        assert ftk_bot.choose(state, adviser, options, None)["area"] == "personal"
        state["drawn"] = weak
        assert ftk_bot.choose(state, adviser, options, None)["area"] == "middle"

    def test_a_king_card_raises_its_office_and_lowers_one_where_it_holds_nothing(self):
        state = FTK.apply(FTK.setup(seats(3), 5), {"type": "deal", "seat": None})
        office = state["offices"][0]
        mine = [c for c in state["deck"] if kind(c) == "government" and CARDS[c]["office"] == office][:2]
        state["seats"][0]["personal_deck"] = mine
        state["phase"] = "king_card"
        king = next(c for c, card in CARDS.items() if card["effect"] == "plus1_minus1_two")
        state["king_card"] = {"seat": 0, "card": king, "then": "choose"}
        choice = ftk_bot.choose(state, 0, FTK.legal_actions(state, 0), None)
        changes = {c["office"]: c["change"] for c in choice["changes"]}
        assert changes[office] == 1
        assert list(changes.values()).count(-1) == 1


# ---- The King's Dilemma ----------------------------------------------------------------------

KD = get_game("kings_dilemma")
HOST_EFFECTS = {"adjust", "move_resource", "mystery_sticker", "to_event_area"}


def kd_config(count: int) -> dict:
    return {"king_name": "Harald V", "seats": [{"name": f"House {i}", "house": 10 + i} for i in range(count)]}


def kd_table(state, choices, rng):
    """The host: types the cards, mostly moves the game on, now and then applies an effect by hand."""
    onward = [c for c in choices if c["type"] not in HOST_EFFECTS]
    return draw_action(KD, state, rng.choice(onward if onward and rng.random() < 0.9 else choices), rng)


def kd_promises(state, seat, action):
    assert action["type"] != "give_coins"
    if action["type"] == "vote":
        power = state["seats"][seat]["power"]
        assert action["power"] <= max(1, power // kd_bot.POWER_SHARE)


class KingsDilemmaBotTests:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_bots_play_whole_games_and_never_give_coins(self, seed):
        count = 3 + seed % 3
        state = play(
            KD, kd_config(count), seed, bots=set(range(count)), table_pick=kd_table, watch=kd_promises
        )
        assert state["result"]["winners"]

    def test_the_policy_itself_never_picks_a_gift_even_when_offered_one(self):
        state = KD.apply(KD.setup(kd_config(3), 3), {"type": "deal", "seat": None})
        while state["phase"] == "draft":
            seat = state["draft"]["order"][state["draft"]["index"]]
            state = KD.apply(
                state, kd_bot.choose(state, seat, KD.legal_actions(state, seat), random.Random(1))
            )
        state = KD.apply(state, draw_action(KD, state, KD.legal_actions(state, TABLE)[0], random.Random(1)))
        for seat in range(3):
            actions = KD.legal_actions(state, seat)
            assert any(a["type"] == "give_coins" for a in actions)
            choice = kd_bot.choose(state, seat, actions, random.Random(seat))
            assert choice is None or choice["type"] != "give_coins"

    def test_it_votes_for_the_side_that_helps_its_secret_agenda_with_modest_power(self):
        state = KD.apply(KD.setup(kd_config(3), 3), {"type": "deal", "seat": None})
        while state["phase"] == "draft":
            seat = state["draft"]["order"][state["draft"]["index"]]
            state = KD.apply(
                state, kd_bot.choose(state, seat, KD.legal_actions(state, seat), random.Random(1))
            )
        leader = state["leader"]
        state["seats"][leader]["secret_agenda"] = "opulent"  # scores markers in rows 9-17
        for row in state["resources"]:
            state["resources"][row] = {"position": 8, "momentum": "up", "marker": False}
        card = {
            "number": 1,
            "title": "Dilemma 1",
            "aye": {"resources": [["wealth", "up"]], "sticker": None},
            "nay": {"resources": [["wealth", "down"]], "sticker": None},
        }
        state = KD.apply(state, {"type": "draw_dilemma", "seat": None, "card": card})
        choice = kd_bot.choose(state, leader, KD.legal_actions(state, leader), random.Random(1))
        assert choice["type"] == "vote" and choice["side"] == "aye"
        assert 1 <= choice["power"] <= state["seats"][leader]["power"] // 3

    def test_low_on_power_it_passes_and_gathers(self):
        state = KD.apply(KD.setup(kd_config(3), 3), {"type": "deal", "seat": None})
        while state["phase"] == "draft":
            seat = state["draft"]["order"][state["draft"]["index"]]
            state = KD.apply(
                state, kd_bot.choose(state, seat, KD.legal_actions(state, seat), random.Random(1))
            )
        state = KD.apply(state, draw_action(KD, state, KD.legal_actions(state, TABLE)[0], random.Random(1)))
        seat = state["vote"]["turn"]
        state["pool"]["power"] += state["seats"][seat]["power"] - 1
        state["seats"][seat]["power"] = 1
        choice = kd_bot.choose(state, seat, KD.legal_actions(state, seat), random.Random(1))
        assert choice["type"] == "pass_gather"


# ---- Council of Four -------------------------------------------------------------------------

C4 = get_game("council_of_four")


class CouncilOfFourBotTests:
    @pytest.mark.parametrize("seed", SEEDS)
    def test_bots_play_whole_games(self, seed):
        count = 2 + seed % 3
        state = play(C4, seats(count), seed, bots=set(range(count)))
        assert state["result"]["winners"]

    def test_the_bot_beats_a_random_player(self):
        wins = 0
        for seed in range(20):
            state = play(C4, seats(2), 2000 + seed, bots={seed % 2})
            wins += seed % 2 in state["result"]["winners"]
        assert wins >= 15, wins
