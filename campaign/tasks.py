"""Celery tasks: thin wrappers that load by id and call a service (retried on failure)."""

from celery import shared_task


@shared_task(bind=True, max_retries=3, acks_late=True)
def campaign_export_task(self, export_id: int) -> str:
    from campaign.services import campaign_export_write

    try:
        return campaign_export_write(export_id=export_id)
    except OSError as exc:  # disk trouble: try again shortly
        raise self.retry(exc=exc, countdown=5) from exc
