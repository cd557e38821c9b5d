"""Celery tasks: thin wrappers that load by id and call a service (retried on failure)."""

from celery import shared_task

from config.celery import RETRY


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, **RETRY)
def campaign_export_task(self, export_id: int) -> str:
    from campaign.services.archive import campaign_export_write

    try:
        return campaign_export_write(export_id=export_id)
    except OSError as exc:  # disk trouble: try again shortly
        raise self.retry(exc=exc, countdown=5) from exc


@shared_task(bind=True, acks_late=True, **RETRY)
def campaign_charts_task(self, campaign_id: int) -> list[str]:
    """Render the campaign charts into the cache (the page renders inline when absent)."""
    from campaign.services.chronicles import campaign_charts_render

    return campaign_charts_render(campaign_id=campaign_id)


@shared_task(bind=True, acks_late=True, **RETRY)
def campaign_export_sweep_task(self) -> dict[str, int]:
    """celery beat: send stale pending exports again, fail those tried too often."""
    from campaign.services.archive import campaign_export_sweep

    return campaign_export_sweep()
