"""The engines took one shape (issue 28): some keys of a game's state were renamed (For the King's
``stage`` is now its ``phase``, its old phase its ``part``). A session's cached state is a fold of its
log (docs/architecture.md), so every session's state is rebuilt by replaying its log under the engines
of this version, and the snapshots (caches of the same fold, in the old shape) are dropped: undo
replays from the setup until new ones are written. A log the engines refuse keeps its state as it was
(its pages say the log is of older rules). Reversing leaves the states as they are."""

import json

from django.db import migrations


def replayed(rules, session, actions) -> dict:
    state = rules.setup(session.config, session.seed)
    for payload in actions:
        state = rules.apply(state, payload)
    return json.loads(json.dumps(state))


def cached_states_rebuilt(apps, schema_editor):
    from games.engines.kernel.registry import get_game

    GameSession = apps.get_model("games", "GameSession")
    SessionAction = apps.get_model("games", "SessionAction")
    SessionSnapshot = apps.get_model("games", "SessionSnapshot")
    SessionSnapshot.objects.all().delete()
    for session in GameSession.objects.iterator():
        try:
            rules = get_game(session.game)
        except KeyError:
            continue
        log = SessionAction.objects.filter(session=session, undone=False).order_by("seq")
        try:
            state = replayed(rules, session, log.values_list("payload", flat=True))
        except Exception:  # a log of older rules: its state stays, its pages say so
            continue
        if state != session.state:
            GameSession.objects.filter(pk=session.pk).update(state=state)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_campaign_seats_wear_their_house_colour")]

    operations = [migrations.RunPython(cached_states_rebuilt, migrations.RunPython.noop)]
