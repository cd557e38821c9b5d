"""A campaign's archive from the pages: the owner's export (requested, tried again, downloaded)
and the import of an archive as a new campaign."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from campaign import forms
from campaign.access import (
    Need,
    demo_adds_no_campaign,
)
from campaign.models import CampaignExport
from campaign.services.archive.export_queue import campaign_export_request, campaign_export_retry
from campaign.services.archive.restore import campaign_import
from campaign.services.archive.upload import ARCHIVE_TOO_LARGE
from campaign.views.form_pages import (
    member_campaign,
    run_service,
)
from config.http import HttpRequest
from config.uploads import upload_too_large

EXPORT_RETRIED = gettext_lazy("Export sent again: the archive appears below when it is ready.")
EXPORT_REQUESTED = gettext_lazy("Export requested: the archive appears below when it is ready.")
IMPORT_TITLE = gettext_lazy("Import a campaign")
ARCHIVE_GONE = gettext_lazy("The archive file is gone: request a new export.")


@login_required
@require_http_methods(["POST"])
def campaign_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)  # the archive holds the whole campaign
    campaign_export_request(campaign=campaign, requested_by=request.user)
    messages.success(request, EXPORT_REQUESTED)
    return redirect("campaign-detail", pk=campaign.pk)


@login_required
@require_http_methods(["POST"])
def campaign_export_retry_view(request: HttpRequest, pk: int, export_id: int) -> HttpResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    export = get_object_or_404(campaign.exports, pk=export_id)
    try:
        campaign_export_retry(export=export, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, EXPORT_RETRIED)
    return redirect("campaign-detail", pk=campaign.pk)


@login_required
@require_safe
def campaign_export_download(request: HttpRequest, pk: int, export_id: int) -> FileResponse:
    campaign = member_campaign(request, pk, Need.OWN)
    export = get_object_or_404(campaign.exports, pk=export_id, status=CampaignExport.Status.READY)
    path = Path(settings.MEDIA_ROOT) / "exports" / export.path
    if not path.is_file():
        raise Http404(ARCHIVE_GONE)
    return FileResponse(path.open("rb"), as_attachment=True, filename=f"{campaign.name}-{export.pk}.json")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_import_view(request: HttpRequest) -> HttpResponse:
    demo_adds_no_campaign(request.user)
    form = forms.CampaignImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and upload_too_large(request):
        # The upload stopped at the limit (config/uploads.py): the file never arrived whole.
        form = forms.CampaignImportForm(request.POST, MultiValueDict())
        form.is_valid()
        form.errors["archive"] = form.error_class([ARCHIVE_TOO_LARGE])
        context = {"form": form, "title": IMPORT_TITLE, "multipart": True}
        return render(request, "campaign/form.html", context, status=413)
    if request.method == "POST" and form.is_valid():
        campaign = run_service(
            form,
            lambda: campaign_import(
                archive=form.cleaned_data["archive"],
                owner=request.user,
                name=form.cleaned_data["name"] or None,
            ),
        )
        if campaign is not None:
            messages.success(request, gettext("Campaign %(name)s imported.") % {"name": campaign.name})
            return redirect("campaign-detail", pk=campaign.pk)
    return render(
        request,
        "campaign/form.html",
        {"form": form, "title": IMPORT_TITLE, "multipart": True},
        status=400 if form.errors else 200,
    )
