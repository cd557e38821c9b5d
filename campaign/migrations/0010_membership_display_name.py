"""A member's display name in a campaign, kept beside the username. A member who already plays a
House whose player's name the owner typed (other than their username) gets that name."""

from django.db import migrations, models


def names_from_houses(apps, schema_editor):
    Membership = apps.get_model("campaign", "Membership")
    House = apps.get_model("campaign", "House")
    for house in House.objects.exclude(user=None).exclude(player_name="").select_related("user"):
        if house.player_name != house.user.username:
            Membership.objects.filter(campaign_id=house.campaign_id, user_id=house.user_id).update(
                display_name=house.player_name
            )


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0009_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="membership",
            name="display_name",
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.RunPython(names_from_houses, migrations.RunPython.noop),
    ]
