"""SQLite connections kept in a pool per process (config/sqlite_pool, DATABASE_POOL=1): a request
reuses the connection an earlier one closed, a transaction left open never travels with it, at
most the pool's max_size are kept, and an in-memory database is never pooled."""

import sqlite3

import pytest
from django.db.utils import ConnectionHandler

from config.sqlite_pool.base import close_pool


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """A database file of this test's own (not the test database: no django_db mark needed)."""
    name = str(tmp_path / "pooled.sqlite3")
    with django_db_blocker.unblock():
        yield name
    close_pool(name)


def wrapper(name: str, max_size: int = 10):
    """A connection to ``name`` as settings.py configures it with DATABASE_POOL=1."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "config.sqlite_pool",
                "NAME": name,
                "CONN_MAX_AGE": 0,
                "OPTIONS": {
                    "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL;",
                    "pool": {"max_size": max_size},
                },
            }
        }
    )
    return handler["default"]


def raw(connection):
    connection.ensure_connection()
    return connection.connection


class SqlitePoolTests:
    def test_a_closed_connection_is_handed_to_the_next_request(self, database, tmp_path):
        first = wrapper(database)
        kept = raw(first)
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE t (x integer)")
        first.close()
        assert (tmp_path / "pooled.sqlite3-wal").exists()  # the log is not checkpointed away
        second = wrapper(database)
        assert raw(second) is kept
        with second.cursor() as cursor:
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        second.close()

    def test_a_transaction_left_open_is_rolled_back_before_reuse(self, database):
        first = wrapper(database)
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE t (x integer)")
        first.set_autocommit(False)
        with first.cursor() as cursor:
            cursor.execute("INSERT INTO t VALUES (1)")
        assert first.connection.in_transaction
        first.close()
        second = wrapper(database)
        assert not raw(second).in_transaction
        with second.cursor() as cursor:
            assert cursor.execute("SELECT count(*) FROM t").fetchone()[0] == 0
        second.close()

    def test_at_most_the_pool_size_is_kept(self, database):
        one, two = wrapper(database, max_size=1), wrapper(database, max_size=1)
        first, second = raw(one), raw(two)
        one.close()
        two.close()
        with pytest.raises(sqlite3.ProgrammingError):  # closed: the pool was full
            second.execute("SELECT 1")
        assert raw(wrapper(database, max_size=1)) is first

    def test_an_in_memory_database_is_never_pooled(self, database):
        memory = wrapper(":memory:")
        kept = raw(memory)
        memory._close()  # what close() would do, were an in-memory database ever closed
        with pytest.raises(sqlite3.ProgrammingError):
            kept.execute("SELECT 1")
