"""The log's words stay the words the players read: games of every engine, played once by their bots
and recorded with each action's label (``data/log_labels.json``), are replayed and every action is
described again from the states before and after it. A change of wording fails here; a wanted one
records the games again (``python -m tests.unit.test_log_labels``)."""

import json
import random
from pathlib import Path

import pytest

from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.choices import draw_action
from games.engines.kernel.registry import games, get_game
from games.engines.kernel.rules import TABLE

RECORDED = Path(__file__).parent / "data" / "log_labels.json"
NAMES = ["Anna", "Ben", "Cora", "Dan", "Eve"]
STEP_CAP = 400
GAMES = [(3, 11), (4, 29)]  # (seats, seed) of each engine's recorded games


def _next_action(rules, state, rng):
    table = rules.legal_actions(state, TABLE)
    if table:
        return draw_action(rules, state, rng.choice(table), rng)
    seat = rules.view(state, None)["to_act"][0]
    return bot_choose_action(rules, state, seat, rng)


def record(rules, seats: int, seed: int) -> dict:
    """One bot game of ``rules``: its setup, every action and the label the log gives it."""
    config = {"seats": [{"name": name} for name in NAMES[:seats]]}
    state = rules.setup(config, seed)
    actions, labels = [], []
    for step in range(STEP_CAP):
        if rules.is_over(state):
            break
        action = _next_action(rules, state, random.Random(f"{seed}:{step}"))
        after = rules.apply(state, action)
        actions.append(action)
        labels.append(rules.describe(state, action, after))
        state = after
    return {"game": rules.slug, "config": config, "seed": seed, "actions": actions, "labels": labels}


def main() -> None:
    games_played = [record(rules, seats, seed) for rules in games() for seats, seed in GAMES]
    RECORDED.write_text(json.dumps(games_played, indent=0, sort_keys=True) + "\n")


def _recorded() -> list[dict]:
    return json.loads(RECORDED.read_text())


@pytest.mark.parametrize("played", _recorded(), ids=lambda g: f"{g['game']}-{g['seed']}")
class LogLabelTests:
    def test_every_action_is_said_as_it_was_recorded(self, played):
        rules = get_game(played["game"])
        state = rules.setup(played["config"], played["seed"])
        for action, label in zip(played["actions"], played["labels"], strict=True):
            after = rules.apply(state, action)
            assert rules.describe(state, action, after) == label, f"step {state['step']}: {action}"
            state = after

    def test_the_recorded_games_cover_the_log_s_extra_lines(self, played):
        """Each engine's recorded games hold labels with what the action led to: the next turn's draw
        (``;``) or the consequences on lines of their own."""
        assert any(";" in label or "\n" in label for label in played["labels"])


if __name__ == "__main__":
    main()
