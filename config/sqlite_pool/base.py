"""SQLite with its connections kept in a pool per process (DATABASE_POOL=1; config/settings.py).

Under ASGI each request's sync code runs in a thread of its own, so a connection cannot persist
with its thread (CONN_MAX_AGE=0). For PostgreSQL Django's own pool keeps them; for SQLite Django
has none, and every request paid for a new connection: the file opened, the schema parsed, the
pragmas run, and on closing the last connection a checkpoint of the write-ahead log, deleted for
the next request to create again. This backend hands a closed connection to the next request
instead, as Django's PostgreSQL pool does: rolled back if a transaction was left open, at most
``OPTIONS["pool"]["max_size"]`` kept (the rest closed), never an in-memory database (each of its
connections is a database of its own). SQLite needs nothing per connection besides what
``get_new_connection`` set up once: its pragmas stay, and a schema changed by another connection
is read again by SQLite on its own.
"""

from __future__ import annotations

import os
import queue
import threading

from django.db.backends.sqlite3 import base

_pools: dict[tuple[int, str], queue.SimpleQueue] = {}
_pools_lock = threading.Lock()


def _pool(name: str) -> queue.SimpleQueue:
    """The idle connections to the database file ``name`` of this process (never a parent's)."""
    with _pools_lock:
        return _pools.setdefault((os.getpid(), name), queue.SimpleQueue())


def close_pool(name: str) -> None:
    """Close every idle connection kept for the database ``name`` (tests, a database removed)."""
    pool = _pool(name)
    while True:
        try:
            pool.get_nowait().close()
        except queue.Empty:
            return


class DatabaseWrapper(base.DatabaseWrapper):
    pool_max_size = 10

    def get_connection_params(self):
        """Django's, less our ``OPTIONS["pool"]`` (``{"max_size": n}``, as PostgreSQL's pool option)."""
        params = super().get_connection_params()
        self.pool_max_size = int(params.pop("pool", {}).get("max_size", self.pool_max_size))
        return params

    def _pooled(self) -> bool:
        return not self.is_in_memory_db()

    def get_new_connection(self, conn_params):
        if self._pooled():
            try:
                return _pool(self.settings_dict["NAME"]).get_nowait()
            except queue.Empty:
                pass
        return super().get_new_connection(conn_params)

    def _close(self):
        if self.connection is None:
            return
        if not self._pooled():
            super()._close()  # type: ignore[misc]  # BaseDatabaseWrapper._close: not in django-stubs
            return
        conn = self.connection
        with self.wrap_database_errors:
            if conn.in_transaction:
                conn.rollback()
        # As Django's PostgreSQL pool: once handed back, this wrapper no longer holds it.
        self.connection = None
        pool = _pool(self.settings_dict["NAME"])
        if pool.qsize() < self.pool_max_size:
            pool.put(conn)
        else:
            conn.close()
