"""Undo never drops an action that revealed information (docs/api.md "Undo", issue 23 item 7): for
every game of the registry, random legal games, and after each action a check that does not trust the
engine's declaration (``Rules.revealing``).

How the check sees a revelation: for the state before an action, a *twin* swaps two values a viewer
cannot tell apart (two cards of the deck, a card of the deck and one in another seat's hand, two
seats' Power behind their screens): the viewer's view of the twin equals its view of the state. The
same action is applied to both. If the viewer's views afterwards differ, the action showed that viewer
something it could not see before, and the engine must declare it not undoable. (A twin in which the
action is not legal proves nothing and is skipped.)
"""

import copy
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.kernel.choices import draw_action
from games.engines.kernel.registry import games, get_game
from games.engines.kernel.rules import TABLE
from tests.unit.contract import property_examples

TWINS_PER_ACTION = 8
MAX_STEPS = 500  # bounded; For the King with 5 seats reaches its Gain Esteem phase by then
NOT_STATE = {"seed", "step"}  # the seeded RNG's inputs: not information of the game


def _leaves(value, path=()):
    """(path, value) of every string or number inside a state (booleans and None aside)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if path or key not in NOT_STATE:
                yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    elif isinstance(value, str | int) and not isinstance(value, bool):
        yield path, value


def _shape(path) -> tuple:
    """A path with its positions and numbered keys blurred: seats[2].power -> seats[*].power."""
    return tuple("*" if isinstance(p, int) or (isinstance(p, str) and p.isdigit()) else p for p in path)


def pile_cards(state) -> set[str]:
    """The strings a state holds in lists: its cards (and other tiles) wherever they lie."""
    return {v for path, v in _leaves(state) if isinstance(path[-1], int) and isinstance(v, str)}


def swap_groups(state, cards: set[str]) -> list[list[tuple]]:
    """Values a twin may swap: values in the same place of like things (every seat's Power, every
    Permit deck's tiles), and any two cards (``cards``: strings seen in a pile during the game),
    wherever they lie (a deck, a hand, the card an Adviser holds)."""
    groups: dict[object, list] = defaultdict(list)
    for path, value in _leaves(state):
        groups[_shape(path)].append((path, value))
        if value in cards:
            groups["a card"].append((path, value))
    return [g for g in groups.values() if len({v for _, v in g}) > 1]


def _put(state, path, value) -> None:
    for key in path[:-1]:
        state = state[key]
    state[path[-1]] = value


def _at(state, path):
    for key in path:
        try:
            state = state[key]
        except (KeyError, IndexError, TypeError):
            return None
    return state


def twins(before, after, cards, rng, count):
    """Up to ``count`` states equal to ``before`` but for two swapped values. Half of them swap a
    value the action moved (the card drawn, the card placed) with a like value."""
    groups = swap_groups(before, cards)
    weights = [len(g) for g in groups]
    moved = [(leaf, g) for g in groups for leaf in g if _at(after, leaf[0]) != leaf[1]]
    for attempt in range(count if groups else 0):
        if moved and attempt % 2 == 0:
            first, group = rng.choice(moved)
            second = rng.choice(group)
        else:
            first, second = rng.sample(rng.choices(groups, weights)[0], 2)
        (a, va), (b, vb) = first, second
        if va == vb:
            continue
        twin = copy.deepcopy(before)
        _put(twin, a, vb)
        _put(twin, b, va)
        yield twin, (first, second)


def _view(rules, state, viewer):
    try:
        return rules.view(state, viewer)
    except Exception:  # a twin no real game reaches (a Permit in a Politics hand): no evidence
        return None


def shows(view, swapped) -> bool:
    """Whether a view shows either swapped value: a card by its id; a number (Power, Coins) is
    shown as soon as the view differs, since numbers are everywhere."""
    values = {value for _, value in swapped}
    return any(isinstance(v, int) for v in values) or any(v in values for _, v in _leaves(view))


def revelation(rules, before, action, after, cards, rng):
    """(viewer, swapped values) of a twin showing that ``action`` let a viewer see something it
    could not see before, or None when no twin tells. What a twin shows and the game does not (the
    King card an Adviser would have revealed) tells nothing about the action played."""
    viewers = [TABLE, *range(len(before["seats"]))]
    seen = {v: (rules.view(before, v), rules.view(after, v)) for v in viewers}
    for twin, swapped in twins(before, after, cards, rng, TWINS_PER_ACTION):
        blind = [v for v in viewers if _view(rules, twin, v) == seen[v][0]]
        if not blind:
            continue
        try:
            twin_after = rules.apply(twin, action)
        except Exception:  # not legal (or not meaningful) in the twin: proves nothing
            continue
        for viewer in blind:
            now = seen[viewer][1]
            if _view(rules, twin_after, viewer) not in (now, None) and shows(now, swapped):
                return viewer, swapped
    return None


def play_and_check(rules, count, seed) -> set[str]:
    """Play a random game; after each action, a revelation found by a twin must be declared. The
    action types played."""
    state = rules.setup({"seats": [{"name": f"Seat {i}"} for i in range(count)]}, seed)
    rng = random.Random(seed)
    seats = [TABLE, *range(count)]
    played, cards = set(), pile_cards(state)
    for _ in range(MAX_STEPS):
        if rules.is_over(state):
            break
        options = [(s, c) for s in seats for c in rules.legal_actions(state, s)]
        _, chosen = rng.choice(options)
        action = draw_action(rules, state, chosen, rng)
        after = rules.apply(state, action)
        if rules.reveals(state, action, after):
            assert not rules.undoable(state, action, after)
        else:  # declared to show nothing: no twin may tell otherwise
            found = revelation(rules, state, action, after, cards, rng)
            assert found is None, (
                f"{action} (step {state['step']}) showed viewer {found[0]} something hidden before "
                f"(swapping {found[1]} changed what it saw), but {rules.slug} does not declare it"
            )
        played.add(action["type"])
        state = after
        cards |= pile_cards(state)
    return played


@pytest.mark.parametrize("rules", games(), ids=lambda r: r.slug)
class RevealsTests:
    @settings(max_examples=property_examples(3), deadline=None)
    @given(data=st.data(), seed=st.integers(0, 2**31))
    def test_every_action_that_shows_something_hidden_is_declared_not_undoable(self, rules, data, seed):
        count = data.draw(st.integers(rules.min_seats, rules.max_seats), label="seats")
        play_and_check(rules, count, seed)

    def test_the_check_sees_what_an_action_declared_revealing_shows(self, rules):
        """The deal's first revealing move is found by a twin: the check sees revelations at all."""
        state = rules.setup({"seats": [{"name": f"Seat {i}"} for i in range(rules.min_seats)]}, 3)
        rng, cards = random.Random(3), pile_cards(state)
        for _ in range(MAX_STEPS):
            options = [
                (s, c) for s in [TABLE, *range(rules.min_seats)] for c in rules.legal_actions(state, s)
            ]
            _, chosen = rng.choice(options)
            action = draw_action(rules, state, chosen, rng)
            after = rules.apply(state, action)
            declared = action["type"] != rules.opening_action["type"] and rules.reveals(state, action, after)
            if declared and revelation(rules, state, action, after, cards, random.Random(0)) is not None:
                return
            state = after
            cards |= pile_cards(state)
        pytest.fail("no twin ever told that an action declared revealing showed something")


class RevealsSelfTests:
    def test_the_check_fails_an_engine_that_forgets_the_card_placed_face_up(self):
        """The bug of issue 23: For the King's 'place' in the middle was undoable."""
        rules = copy.copy(get_game("for_the_king"))
        rules.revealing = {t: w for t, w in rules.revealing.items() if t != "place"}
        with pytest.raises(AssertionError, match="'place'.*'middle'"):
            play_and_check(rules, 3, 1)
