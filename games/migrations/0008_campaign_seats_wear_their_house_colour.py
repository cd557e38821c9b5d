"""One colour per House (issue 26): the seats of campaign nights already played or in progress take
their House's colour (campaign.colours), the colour of every campaign page and chart. Seats of other
games keep their seat colour. Reversing leaves the colours as they are."""

from django.db import migrations


def seats_wear_house_colours(apps, schema_editor):
    from campaign.colours import house_colour

    GameSession = apps.get_model("games", "GameSession")
    House = apps.get_model("campaign", "House")
    Seat = apps.get_model("games", "Seat")
    for session in GameSession.objects.exclude(campaign=None).iterator():
        seats = (session.config or {}).get("seats") or []
        houses = dict(
            House.objects.filter(pk__in=[s.get("house") for s in seats if isinstance(s, dict)]).values_list(
                "pk", "number"
            )
        )
        for seat in Seat.objects.filter(session=session):
            entry = seats[seat.index] if seat.index < len(seats) else None
            number = houses.get(entry.get("house")) if isinstance(entry, dict) else None
            if number is not None:
                seat.colour = house_colour(number)
                seat.save(update_fields=["colour"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_action_label_holds_consequences"),
        ("campaign", "0008_membership_roles"),
    ]

    operations = [migrations.RunPython(seats_wear_house_colours, migrations.RunPython.noop)]
