"""The read-only link to a night's story: create and revoke (the only writers of StoryLink). Each
change is a campaign event, like every other change to a campaign."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from campaign.models import ChronicleGame, StoryLink
from campaign.services.common import Actor, record_event
from games.engines.kernel.messages import gettext_noop

STORY_LINK_NONE = gettext_lazy("The story of game {number} has no shared link to revoke.")
STORY_SHARED = gettext_noop("The story of game {number} was shared by a read-only link")
STORY_UNSHARED = gettext_noop("The read-only link to the story of game {number} was revoked")


@transaction.atomic
def story_link_create(*, game: ChronicleGame, actor: Actor = None) -> StoryLink:
    """The game's live link, made now if it has none (one live link per night: sharing twice gives
    the same link)."""
    game = ChronicleGame.objects.select_for_update().get(pk=game.pk)
    live = game.story_links.filter(revoked_at__isnull=True).first()
    if live is not None:
        return live
    link = StoryLink(
        campaign_id=game.campaign_id,
        game=game,
        created_by=actor if isinstance(actor, User) else None,
    )
    link.full_clean()
    link.save()
    summary = STORY_SHARED.format(number=game.number)
    record_event(game.campaign, "story_shared", summary, actor=actor, game=game)
    return link


@transaction.atomic
def story_link_revoke(*, game: ChronicleGame, actor: Actor = None) -> StoryLink:
    """The live link stops working at once (its address says it was revoked: 410)."""
    game = ChronicleGame.objects.select_for_update().get(pk=game.pk)
    live = game.story_links.filter(revoked_at__isnull=True).first()
    if live is None:
        raise ValidationError(STORY_LINK_NONE.format(number=game.number))
    live.revoked_at = timezone.now()
    live.save(update_fields=["revoked_at"])
    summary = STORY_UNSHARED.format(number=game.number)
    record_event(game.campaign, "story_unshared", summary, actor=actor, game=game)
    return live
