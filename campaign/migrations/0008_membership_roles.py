"""Roles on a campaign (issue 24): the organiser was the "host", now the "owner"; "viewer" is new.
A campaign whose creator had no membership gets one as its owner, so every campaign has an owner."""

from django.db import migrations, models


def host_becomes_owner(apps, schema_editor):
    Membership = apps.get_model("campaign", "Membership")
    Campaign = apps.get_model("campaign", "Campaign")
    Membership.objects.filter(role="host").update(role="owner")
    for campaign in Campaign.objects.exclude(created_by=None).exclude(memberships__role="owner"):
        Membership.objects.update_or_create(
            campaign=campaign, user_id=campaign.created_by_id, defaults={"role": "owner"}
        )


def owner_becomes_host(apps, schema_editor):
    Membership = apps.get_model("campaign", "Membership")
    Membership.objects.filter(role="owner").update(role="host")
    Membership.objects.filter(role="viewer").update(role="player")


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0007_export_attempts"),
    ]

    operations = [
        migrations.AlterField(
            model_name="membership",
            name="role",
            field=models.CharField(
                choices=[("owner", "Owner"), ("player", "Player"), ("viewer", "Viewer")],
                default="player",
                max_length=10,
            ),
        ),
        migrations.RunPython(host_becomes_owner, owner_becomes_host),
    ]
