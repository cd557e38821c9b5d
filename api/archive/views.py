"""A campaign's archive through the API: the owner asks for an export, polls it and downloads the
file; anyone logged in (but the demo account) imports an archive into a new campaign. The same
services and limits as the pages (campaign/views.py): the export is written by its Celery task, the
upload is refused while it is received past UPLOAD_MAX_BYTES, the file is read as the import page
reads it (campaign/services/archive_upload.py), and ``campaign_import`` writes all or nothing. The
format: docs/archive.md."""

from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, parsers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import CampaignApi, ChronicleApi
from api.errors import MEMBER_READ, MEMBER_WRITE, ErrorSerializer, errors
from api.fields import NameField
from campaign.access import Need
from campaign.models import CampaignExport
from campaign.services.archive.export_queue import campaign_export_request
from campaign.services.archive.format import (
    ARCHIVE_FORMAT,
    ARCHIVE_SECTION_ROWS,
    ARCHIVE_VERSION,
    ARCHIVE_WRONG_FORMAT,
    ARCHIVE_WRONG_VERSION,
)
from campaign.services.archive.restore import campaign_import
from campaign.services.archive.upload import ARCHIVE_NOT_JSON, archive_upload_read
from config.uploads import upload_limit_message, upload_too_large

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

TAGS = ["archive"]

EXPORT_NOT_READY = gettext_lazy("This export has no file yet: ask its status until it is ready.")
EXPORT_FAILED = gettext_lazy("This export failed: {reason}")
EXPORT_GONE = gettext_lazy("The archive file is gone: request a new export.")
NAME_HELP = "The new campaign's name; left out or empty: the name the archive holds."


class ArchiveRefused(exceptions.APIException):
    """A refusal with its own code (config/api_errors.py), its sentence the service's or the form's."""

    def __init__(self, message: "StrOrPromise", code: str, status_code: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.status_code, self.default_code, self.extra = status_code, code, extra


def archive_code(message: str) -> str:
    """The code of an import refusal: a file of another kind, of an unread version, or damaged."""
    if message == ARCHIVE_WRONG_FORMAT:
        return "archive_foreign"
    if message.startswith(ARCHIVE_WRONG_VERSION.split("{", 1)[0]):
        return "archive_version"
    return "archive_damaged"


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


class CampaignExportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=CampaignExport.Status.choices,
        help_text="pending: being written (ask again in a few seconds); ready: download_url serves the "
        "file; failed: reason says why (request a new export).",
    )
    reason = serializers.CharField(
        source="said_error",
        help_text="Why a failed export failed, or why a pending one waits (its queue was unreachable: it "
        "is sent again by itself); empty otherwise.",
    )
    created_at = serializers.DateTimeField()
    status_url = serializers.SerializerMethodField(help_text="Where to ask this export's status.")
    download_url = serializers.SerializerMethodField(help_text="The file, once ready; null before.")

    def _url(self, export: CampaignExport, name: str) -> str:
        path = reverse(f"api:{name}", args=[export.campaign_id, export.pk])
        return self.context["request"].build_absolute_uri(path)

    def get_status_url(self, export: CampaignExport) -> str:
        return self._url(export, "campaign-export-status")

    def get_download_url(self, export: CampaignExport) -> str | None:
        if export.status != CampaignExport.Status.READY:
            return None
        return self._url(export, "campaign-export-download")


ARCHIVE_FILE = inline_serializer(
    "CampaignArchive",
    {
        "format": serializers.CharField(help_text=f"Always {ARCHIVE_FORMAT!r}."),
        "version": serializers.IntegerField(help_text=f"The format's version ({ARCHIVE_VERSION} today)."),
        "exported_at": serializers.DateTimeField(),
        "campaign": serializers.DictField(help_text="The campaign's name, settings and flags."),
        **{
            section: serializers.ListField(child=serializers.DictField(), max_length=rows)
            for section, rows in ARCHIVE_SECTION_ROWS.items()
        },
    },
)


class CampaignExportRequestApi(CampaignApi):
    # The page's rule (campaign_export_view): the archive holds the whole campaign, so the owner only.
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Export the campaign to an archive file (owner only)",
        request=None,
        responses={202: CampaignExportSerializer, **MEMBER_WRITE},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Starts writing an archive of the whole campaign (every House, sticker, Envelope, card,
        game, history entry and table session) in the background, and answers at once (202) with
        the export's `id`, `status` "pending" and its `status_url`. Ask the `status_url` every few
        seconds until `status` is "ready", then download the file from `download_url`. Only the
        campaign's owner may: another member gets 403 (code permission_denied)."""
        export = campaign_export_request(campaign=self.campaign, requested_by=request.user)
        export.refresh_from_db()  # eager Celery (no Redis) writes it before the answer
        context = self.get_serializer_context()
        return Response(
            CampaignExportSerializer(export, context=context).data, status=status.HTTP_202_ACCEPTED
        )


class CampaignExportStatusApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="An export's status: pending, ready (with its download URL) or failed (with the reason)",
        responses={200: CampaignExportSerializer, **MEMBER_READ},
    )
    def get(self, request: Request, campaign_id: int, export_id: int) -> Response:
        """The export's `status`: "pending" while it is written (ask again in a few seconds),
        "ready" with its `download_url`, or "failed" with the `reason`. Owner only; an export of
        another campaign is 404."""
        export = get_object_or_404(self.campaign.exports, pk=export_id)
        return Response(CampaignExportSerializer(export, context=self.get_serializer_context()).data)


class CampaignExportDownloadApi(CampaignApi):
    need = Need.OWN

    @extend_schema(
        tags=TAGS,
        summary="Download an export's archive file (a JSON file, as an attachment)",
        parameters=[
            OpenApiParameter(
                "Content-Disposition",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                response=[200],
                description='attachment; filename="<campaign name>-<export id>.json"',
            )
        ],
        responses={
            200: OpenApiResponse(ARCHIVE_FILE, description="The archive file (docs/archive.md)."),
            409: _error(
                "The export has no file: still being written (code export_not_ready, extra.status "
                "pending: ask its status again) or failed (extra.status failed, extra.reason)."
            ),
            410: _error("The file is no longer on the server (code export_gone): request a new export."),
            **MEMBER_READ,
        },
    )
    def get(self, request: Request, campaign_id: int, export_id: int) -> FileResponse:
        """The archive file of a ready export, as a JSON attachment: keep it as it is to import it
        again later (`POST /api/campaigns/import/`). Owner only. Not ready yet or failed: 409
        (code export_not_ready, `extra.status`); the file removed from the server: 410 (code
        export_gone)."""
        export = get_object_or_404(self.campaign.exports, pk=export_id)
        if export.status != CampaignExport.Status.READY:
            failed = export.status == CampaignExport.Status.FAILED
            reason = export.said_error
            message = EXPORT_FAILED.format(reason=reason) if failed else EXPORT_NOT_READY
            raise ArchiveRefused(message, "export_not_ready", 409, status=export.status, reason=reason)
        path = Path(settings.MEDIA_ROOT) / "exports" / export.path
        if not export.path or not path.is_file():
            raise ArchiveRefused(EXPORT_GONE, "export_gone", 410)
        name = f"{self.campaign.name}-{export.pk}.json"
        return FileResponse(
            path.open("rb"), as_attachment=True, filename=name, content_type="application/json"
        )


class CampaignImportApi(ChronicleApi):
    # Multipart, as the page: the exported file goes back as it is (one call in any HTTP stack, a
    # file parameter in a generated client), up to UPLOAD_MAX_BYTES, counted while it is received;
    # a JSON body is read whole in memory and capped far lower (DATA_UPLOAD_MAX_MEMORY_SIZE).
    parser_classes = [parsers.MultiPartParser]

    class InputSerializer(serializers.Serializer):
        archive = serializers.FileField(help_text="The archive file, as an export downloaded it.")
        name = NameField(max_length=120, required=False, allow_blank=True, help_text=NAME_HELP)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()

    @extend_schema(
        tags=TAGS,
        summary="Import an archive file into a new campaign of yours",
        request={"multipart/form-data": InputSerializer},
        responses={
            201: OutputSerializer,
            400: _error(
                "The archive is refused and nothing was written: code archive_damaged (not JSON, or "
                "a part the import refuses: the message says which), archive_foreign (not a Chronicle "
                "archive), archive_version (a format version this server does not read), or invalid "
                "(a field: extra.fields)."
            ),
            413: _error("The file is larger than the import takes (code too_large, extra.limit in bytes)."),
            415: _error("The body is not multipart/form-data."),
            **errors(401, 403),
        },
    )
    def post(self, request: Request) -> Response:
        """Creates a new campaign from an archive file (multipart/form-data: the file in `archive`,
        optionally a `name`); you become its owner. Answers 201 with the new campaign's `id`. The
        whole archive is checked first: a damaged, foreign or too large file is refused (400 with
        code archive_damaged, archive_foreign or archive_version; 413 too_large) and nothing at all
        is written. The table sessions it holds get new seat tokens. The demo account imports
        nothing (403)."""
        data = self.input(request)
        try:
            campaign = campaign_import(
                archive=data["archive"], owner=request.user, name=data.get("name") or None
            )
        except ValidationError as error:
            message = " ".join(error.messages)
            raise ArchiveRefused(message, archive_code(message)) from None
        out = self.OutputSerializer({"id": campaign.pk, "name": campaign.name})
        return Response(out.data, status=status.HTTP_201_CREATED)

    def input(self, request: Request) -> dict:
        """The upload read as the import page reads it: its size limit and its JSON reading."""
        request.FILES  # noqa: B018  # parsed first: the upload's limit is known once it is read
        if upload_too_large(request):
            limit = settings.UPLOAD_MAX_BYTES
            raise ArchiveRefused(upload_limit_message(), "too_large", 413, limit=limit)
        data = super().input(request)
        try:
            archive = archive_upload_read(upload=data["archive"])
        except ValidationError as error:
            message = " ".join(error.messages)
            code = "archive_damaged" if message == ARCHIVE_NOT_JSON else "too_large"
            raise ArchiveRefused(message, code, 400 if code == "archive_damaged" else 413) from None
        return {**data, "archive": archive}
