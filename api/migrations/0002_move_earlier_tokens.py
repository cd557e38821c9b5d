"""Each one-per-user token of DRF's authtoken becomes a device token named "Earlier login": the
same key keeps working (only its digest is stored), with the same creation time (and expiry)."""

import hashlib

from django.db import migrations

EARLIER_LOGIN = "Earlier login"


def move_tokens(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    DeviceToken = apps.get_model("api", "DeviceToken")
    DeviceToken.objects.bulk_create(
        DeviceToken(
            user_id=token.user_id,
            digest=hashlib.sha256(token.key.encode()).hexdigest(),
            name=EARLIER_LOGIN,
            created=token.created,
        )
        for token in Token.objects.all()
    )
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_device_tokens"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(move_tokens, migrations.RunPython.noop)]
