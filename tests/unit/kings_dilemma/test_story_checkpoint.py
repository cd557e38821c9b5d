"""Issue 27, item 4: the story of a night folded from a checkpoint (the story so far and the state,
as plain JSON: what the Django side keeps beside a snapshot) equals the story told from the setup,
wherever the checkpoint is taken, over the scripted night of test_story (rulebook "Dilemma
Resolution" and "End of the Game": the ranking only once the night is over)."""

import json

import pytest

from games.engines.kings_dilemma.story import night_story, story_begin, story_fold, story_told
from tests.unit.kings_dilemma.test_story import ScriptedNight


@pytest.fixture(scope="module")
def night():
    return ScriptedNight().play()


def _stored(checkpoint: dict) -> dict:
    return json.loads(json.dumps(checkpoint))  # as the database gives it back


class StoryCheckpointTests:
    def test_a_story_resumed_at_any_action_equals_the_story_told_from_the_setup(self, night):
        whole = night_story(night.config, night.seed, night.log)
        for cut in range(len(night.log) + 1):
            checkpoint = _stored(story_fold(story_begin(night.config, night.seed), night.log[:cut]))
            assert story_told(story_fold(checkpoint, night.log[cut:])) == whole, cut

    def test_a_checkpoint_tells_the_story_so_far_and_folds_on(self, night):
        checkpoint = story_begin(night.config, night.seed)
        for upto, action in enumerate(night.log, start=1):
            story_fold(checkpoint, [action])
            assert story_told(checkpoint) == night_story(night.config, night.seed, night.log[:upto])
        assert story_told(checkpoint)["over"] and story_told(checkpoint)["ranking"]
