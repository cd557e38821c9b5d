import factory
from django.contrib.auth import get_user_model

from campaign import services


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("secret-pass")


def campaign_with_houses(*names, user=None, name="Test campaign"):
    """A campaign (through the services) with one House per name, numbered 1, 2, 3..."""
    user = user or UserFactory()
    campaign = services.campaign_create(name=name, created_by=user)
    houses = [
        services.house_create(campaign=campaign, name=house_name, number=i + 1)
        for i, house_name in enumerate(names)
    ]
    return campaign, houses
