import factory
from django.contrib.auth import get_user_model

from campaign.services.houses import campaign_create, house_create


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("secret-pass")


def campaign_with_houses(*names, user=None, name="Test campaign"):
    """A campaign (through the services) with one House per name, numbered 1, 2, 3..."""
    user = user or UserFactory()
    campaign = campaign_create(name=name, created_by=user)
    houses = [
        house_create(campaign=campaign, name=house_name, number=i + 1) for i, house_name in enumerate(names)
    ]
    return campaign, houses


def campaign_at_the_last_mystery(*names, user=None, name="Test campaign"):
    """A campaign with its starting deck (cards 1-10), Ending cards 61 (Crown, Cohesion 3) and 66
    (Faith, Dissent 2, "Schism") and Mystery stickers A to E: its next night may be its last."""
    from campaign.services.envelopes import envelope_open, story_card_place
    from campaign.services.stickers import mystery_sticker_attach

    campaign, houses = campaign_with_houses(*names, user=user, name=name)
    envelope_open(campaign=campaign, number=0, dilemma_numbers=list(range(1, 11)))
    story_card_place(
        campaign=campaign, number=61, storyline="Crown", signer=houses[0], is_ending=True, cohesion=3
    )
    story_card_place(
        campaign=campaign,
        number=66,
        storyline="Faith",
        signer=houses[1],
        is_ending=True,
        dissent=2,
        title="Schism",
    )
    for letter in "ABCDE":
        mystery_sticker_attach(campaign=campaign, letter=letter)
    return campaign, houses


# The rulebook's King Harald V Realm Chronicles table ('Mark scores on the Realm Chronicles'):
# name, Secret Agenda, Open Agenda, Coins and Power points.
HARALD = [
    ("Valentine", 5, -1, 1, 2),
    ("Martina", 7, 1, 3, 0),
    ("Armin", 3, 3, 0, 1),
    ("Charles", 12, -3, 0, 0),
    ("Theodore", 7, 1, 1, 1),
]
HARALD_AGENDAS = ("opulent", "moderate", "rebel", "greedy", "extremist")


def harald_rows(houses, agendas=HARALD_AGENDAS, *, house_key=lambda h: h):
    """The King Harald V table as result rows (``house_key=lambda h: h.pk`` for an API body)."""
    return [
        {
            "house": house_key(h),
            "secret_agenda": agenda,
            "agenda_points": a,
            "open_agenda_points": o,
            "coins_points": c,
            "power_points": p,
        }
        for h, (_, a, o, c, p), agenda in zip(houses, HARALD, agendas, strict=True)
    ]


def group_campaign(owner, **members):
    """The demo campaign (Houses, stickers, Envelopes, games) as a group's own: ``owner`` owns it
    instead of the demo account, and each ``role=user`` keyword adds a member, e.g.
    ``group_campaign(anna, player=ben, viewer=carla)``; a player plays the campaign's second House."""
    from campaign.demo import demo_campaign_load
    from campaign.models import Campaign, Membership

    campaign = demo_campaign_load()
    Campaign.objects.filter(pk=campaign.pk).update(created_by=owner)
    campaign.memberships.update(user=owner)
    for role, user in members.items():
        Membership.objects.create(campaign=campaign, user=user, role=role)
        if role == Membership.Role.PLAYER:
            campaign.houses.filter(pk=campaign.houses.order_by("number")[1].pk).update(user=user)
    campaign.refresh_from_db()
    return campaign
