"""A campaign that has lived a little: two nights saved, a player, a sticker corrected, a viewer
invited, a story shared, a night abandoned. The campaign's walks read its pages (the pseudo-language
walk, the history's languages)."""

from campaign.models import Membership
from campaign.services.game_nights import game_night_start
from campaign.services.members import invitation_create
from campaign.services.stickers import sticker_correct
from campaign.services.stories import story_link_create
from games.services.sessions import session_abandon
from tests.story_play import _first_two_open_agendas, campaign_of_nights


def campaign_lived(*, owner, player, name: str):
    """(campaign, houses, games, sticker, link): ``player`` plays the second House; the first sticker
    is corrected (its side, signer and title), a viewer is invited, the first night's story shared."""
    campaign, houses, games = campaign_of_nights(2, user=owner, name=name)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    houses[1].user = player
    houses[1].save(update_fields=["user"])
    sticker = campaign.stickers.order_by("number").first()
    sticker_correct(
        sticker=sticker,
        number=sticker.number,
        row=sticker.row,
        positive=not sticker.positive,
        signer=houses[2],
        title="Bread riots",
        actor=owner,
    )
    invitation_create(campaign=campaign, actor=owner, role="viewer", days=3)
    link = story_link_create(game=games[0], actor=owner)
    return campaign, houses, games, sticker, link


def night_abandoned(campaign, houses, *, host):
    """A night started under King Olaf and abandoned before its save: it leaves nothing behind."""
    session = game_night_start(
        campaign=campaign,
        houses=houses,
        king_name="Olaf",
        host=host,
        seed=7,
        keep=_first_two_open_agendas(campaign, houses),
    )
    session_abandon(session=session)
    return session
