"""Django's WSGI handler under ASGI, on a pool of threads: the pages, the panels, the taps and the API
(config/asgi.py sends here every request whose body length is declared).

An ordinary answer crosses between the event loop and the pool once each way: a body of declared
length up to ``BODY_READ_FIRST`` is received on the loop before the handler's thread starts, and the
answer (status, headers and content, Django's ``HttpResponse``) comes back whole as the thread's
result. Each crossing wakes a thread and costs CPU; a2wsgi's bridge, which this replaces, crossed
four or five times a request (the body asked for from the thread, then the start of the answer, its
content and its end, each waited for). A larger body is read from the thread as it arrives, and a
streamed answer (a static file, an export) is handed to the loop part by part, as a2wsgi did.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi.wsgi import Body, build_environ
from django.http import HttpResponse

# A body up to this many bytes (a tap, an API call, a form) is received whole on the event loop.
BODY_READ_FIRST = 256 * 1024

Message = dict[str, Any]
Send = Callable[[Message], Any]
Receive = Callable[[], Any]
Headers = list[tuple[bytes, bytes]]


def _declared_length(scope: dict) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _whole_body(receive: Receive) -> bytes:
    parts, more = [], True
    while more:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: what came is all there is
            break
        parts.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(parts)


class _Started:
    """What the handler gave ``start_response``."""

    def __init__(self) -> None:
        self.status = 500
        self.headers: Headers = []

    def __call__(self, status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (name.strip().encode("latin1").lower(), value.strip().encode("latin1")) for name, value in headers
        ]
        return _no_write


def _no_write(data: bytes) -> None:
    raise NotImplementedError("Django's handler never writes through start_response's callable.")


class WsgiPages:
    """ASGI application: a WSGI application (Django's handler) on ``workers`` threads."""

    def __init__(self, app: Callable[..., Iterable[bytes]], *, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(thread_name_prefix="pages", max_workers=workers)

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        length = _declared_length(scope)
        body: Any
        if length is None and scope.get("method") in ("GET", "HEAD", "OPTIONS", "DELETE"):
            body = io.BytesIO(b"")  # no body declared on a method without one: there is none
        elif length is not None and length <= BODY_READ_FIRST:
            body = io.BytesIO(await _whole_body(receive))
        else:
            body = Body(loop, receive)
        environ: dict = build_environ(scope, body)  # type: ignore[arg-type, assignment]  # an HTTP scope; a dict
        # The handler runs in a copy of this context (games.live.nudges keeps a request's nudges in it).
        context = contextvars.copy_context()
        answer = functools.partial(context.run, self._answer, environ, loop, send)
        whole = await loop.run_in_executor(self.executor, answer)
        if whole is not None:
            status, headers, content = whole
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    def _answer(
        self, environ: dict, loop: asyncio.AbstractEventLoop, send: Send
    ) -> tuple[int, Headers, bytes] | None:
        """In a thread of the pool: the whole answer when it is an ``HttpResponse``; a streamed one
        is sent from here part by part (None)."""
        started = _Started()
        answer = self.app(environ, started)
        try:
            if isinstance(answer, HttpResponse):
                return started.status, started.headers, b"".join(answer)
            handed = _Handover(loop, send)
            handed({"type": "http.response.start", "status": started.status, "headers": started.headers})
            for part in answer:
                handed({"type": "http.response.body", "body": part, "more_body": True})
            handed({"type": "http.response.body", "body": b""})
            return None
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()  # Django's request_finished: the thread's database connection goes back


class _Handover:
    """Send a message from a thread of the pool through the event loop, waiting until it is sent."""

    def __init__(self, loop: asyncio.AbstractEventLoop, send: Send) -> None:
        self.loop, self.send = loop, send

    def __call__(self, message: Message) -> None:
        asyncio.run_coroutine_threadsafe(self.send(message), self.loop).result()
