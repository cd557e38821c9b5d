from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0011_account_preference"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaignevent",
            name="summary_data",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="campaignexport",
            name="error_data",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="ledgerentry",
            name="reason_data",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
    ]
