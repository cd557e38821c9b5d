"""The read-only link to a night's story: create and revoke (the only writers of StoryLink). Each
change is a campaign event, like every other change to a campaign."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.models import CampaignEvent, ChronicleGame, StoryLink

STORY_LINK_NONE = "The story of game {number} has no shared link to revoke."


def _story_event(game: ChronicleGame, kind: str, summary: str, actor) -> None:
    CampaignEvent.objects.create(
        campaign_id=game.campaign_id,
        kind=kind,
        summary=summary,
        actor=actor if isinstance(actor, AbstractBaseUser) else None,
        game=game,
    )


@transaction.atomic
def story_link_create(*, game: ChronicleGame, actor=None) -> StoryLink:
    """The game's live link, made now if it has none (one live link per night: sharing twice gives
    the same link)."""
    game = ChronicleGame.objects.select_for_update().get(pk=game.pk)
    live = game.story_links.filter(revoked_at__isnull=True).first()
    if live is not None:
        return live
    link = StoryLink(
        campaign_id=game.campaign_id,
        game=game,
        created_by=actor if isinstance(actor, AbstractBaseUser) else None,
    )
    link.full_clean()
    link.save()
    _story_event(
        game, "story_shared", f"The story of game {game.number} was shared by a read-only link", actor
    )
    return link


@transaction.atomic
def story_link_revoke(*, game: ChronicleGame, actor=None) -> StoryLink:
    """The live link stops working at once (its address answers 404 from now on)."""
    game = ChronicleGame.objects.select_for_update().get(pk=game.pk)
    live = game.story_links.filter(revoked_at__isnull=True).first()
    if live is None:
        raise ValidationError(STORY_LINK_NONE.format(number=game.number))
    live.revoked_at = timezone.now()
    live.save(update_fields=["revoked_at"])
    _story_event(
        game, "story_unshared", f"The read-only link to the story of game {game.number} was revoked", actor
    )
    return live
