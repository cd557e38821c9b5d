"""Uploads are refused while they are being received, never after (a 500 MB upload was once
received in full before the 10 MB check refused it).

Two layers, because Django reads a body differently under each server:

- ``body_limit`` wraps the ASGI application (uvicorn, gunicorn's uvicorn workers): Django's ASGI
  handler spools a request's whole body before any view or upload handler runs, so the limit is
  applied to the ASGI messages themselves. A declared Content-Length over the limit is answered at
  once (413) without reading the body; a body without one is counted and cut at the limit.
- ``UploadLimitHandler`` (first in FILE_UPLOAD_HANDLERS) serves WSGI (``manage.py runserver``, the
  test client), where the multipart parser reads the body as it goes: it stops the upload at the
  limit and marks the request, so the import page answers with its own visible message.

The limit is ``UPLOAD_MAX_BYTES`` for a file (one archive) and ``REQUEST_BODY_MAX_BYTES`` for a
whole request (the file, the other fields and the multipart framing)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest
from django.utils.html import escape
from django.utils.translation import gettext_lazy

from config.api_errors import API_PREFIX, error_body

UPLOAD_TOO_LARGE = gettext_lazy("The upload is larger than {mb} MB: it was refused while being received.")
_MARK = "_chronicle_upload_too_large"


def upload_too_large(request: HttpRequest) -> bool:
    """True if this request's upload was cut off at the limit (read its POST or FILES first)."""
    return bool(getattr(request, _MARK, False))


def upload_limit_message() -> str:
    return UPLOAD_TOO_LARGE.format(mb=settings.UPLOAD_MAX_BYTES // (1024 * 1024))


class UploadLimitHandler(FileUploadHandler):
    """Counts each file's bytes as the parser hands them over; past ``UPLOAD_MAX_BYTES`` (or with a
    declared body over ``REQUEST_BODY_MAX_BYTES``) the upload stops without reading the rest."""

    received = 0

    def _refuse(self):
        setattr(self.request, _MARK, True)
        raise StopUpload(connection_reset=True)

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        if content_length > settings.REQUEST_BODY_MAX_BYTES:
            setattr(self.request, _MARK, True)  # the fields before the file are still read
        return None

    def new_file(self, *args, **kwargs):
        self.received = 0
        if getattr(self.request, _MARK, False):
            self._refuse()

    def receive_data_chunk(self, raw_data, start):
        self.received += len(raw_data)
        if self.received > settings.UPLOAD_MAX_BYTES:
            self._refuse()
        return raw_data

    def file_complete(self, file_size):
        return None


async def _answer_too_large(scope, send) -> None:
    message = upload_limit_message()
    if scope.get("path", "").startswith(API_PREFIX):
        body = json.dumps(
            error_body(message, 413, "too_large", {"limit": settings.UPLOAD_MAX_BYTES})
        ).encode()
        kind = b"application/json"
    else:
        body = (
            '<!doctype html><html lang="en"><meta charset="utf-8"><title>Upload too large</title>'
            f'<p role="alert">{escape(message)}</p><p><a href="/">Back to Chronicle</a></p></html>'
        ).encode()
        kind = b"text/html; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            return int(value) if value.isdigit() else None
    return None


def body_limit(app):
    """ASGI middleware: a request body over ``REQUEST_BODY_MAX_BYTES`` is answered 413 while it is
    being received (at once when its Content-Length says so)."""

    async def application(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        limit = settings.REQUEST_BODY_MAX_BYTES
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            return await _answer_too_large(scope, send)
        state = {"received": 0, "over": False, "started": False}

        async def counted_receive():
            if state["over"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["received"] += len(message.get("body", b""))
                if state["received"] > limit:
                    state["over"] = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def tracked_send(message):
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await app(scope, counted_receive, tracked_send)
        if state["over"] and not state["started"]:
            await _answer_too_large(scope, send)

    return application
