"""Celery tasks: thin wrappers that load by id and call a service (retried on failure).

The services are imported here at the top: they send these tasks by name (``EXPORT_TASK``,
``CHARTS_TASK``) and never import this module, so there is no circle to hide in a function body.
Each service is called through its module, so a test may replace it there."""

from celery import shared_task

from campaign.services import chronicles
from campaign.services.archive import export_queue
from config.celery import RETRY


@shared_task(name=export_queue.EXPORT_TASK, bind=True, acks_late=True, reject_on_worker_lost=True, **RETRY)
def campaign_export_task(self, export_id: int) -> str:
    try:
        return export_queue.campaign_export_write(export_id=export_id)
    except OSError as exc:  # disk trouble: try again shortly
        raise self.retry(exc=exc, countdown=5) from exc


@shared_task(name=chronicles.CHARTS_TASK, bind=True, acks_late=True, **RETRY)
def campaign_charts_task(self, campaign_id: int) -> list[str]:
    """Render the campaign charts into the cache (the page renders inline when absent)."""
    return chronicles.campaign_charts_render(campaign_id=campaign_id)


@shared_task(name="campaign.tasks.campaign_export_sweep_task", bind=True, acks_late=True, **RETRY)
def campaign_export_sweep_task(self) -> dict[str, int]:
    """celery beat: send stale pending exports again, fail those tried too often."""
    return export_queue.campaign_export_sweep()
