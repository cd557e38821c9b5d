"""An uploaded archive file read for the import, by the import page's form and the API alike: its
size first, then its JSON. Nothing is written: ``campaign_import`` takes what this answers."""

from typing import Any, cast

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from campaign.services.archive.format import ARCHIVE_MAX_BYTES
from config.json_limits import json_loads_strict

# A lazy message that forms put in their error lists beside plain texts: typed as the text it reads as.
ARCHIVE_TOO_LARGE = cast(
    str, format_lazy(gettext_lazy("The archive is larger than {size} MB."), size=ARCHIVE_MAX_BYTES // 2**20)
)
ARCHIVE_NOT_JSON = gettext_lazy("The archive is damaged: it is not valid JSON.")


def archive_upload_read(*, upload: UploadedFile) -> Any:
    """The archive's JSON; a file past ARCHIVE_MAX_BYTES or not JSON is refused with its sentence."""
    if upload.size is not None and upload.size > ARCHIVE_MAX_BYTES:
        raise ValidationError(ARCHIVE_TOO_LARGE)
    try:
        return json_loads_strict(upload.read(ARCHIVE_MAX_BYTES + 1).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValidationError(ARCHIVE_NOT_JSON) from None
