"""An import that does not stop the tables (issue 23): the archive is read and checked with no
transaction open, then written in one transaction of bulk inserts, so on SQLite (every transaction
takes the write lock when it begins) the lock is held only for those; a table tapped meanwhile waits
for it and answers."""

import json
import random
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaign.models import Campaign, CampaignEvent
from campaign.services.archive import importer
from campaign.services.archive.export import archive_dumps, campaign_archive
from campaign.services.archive.restore import campaign_import
from games.engines.kernel.bots import bot_choose_action
from games.engines.kernel.registry import get_game
from games.models import GameSession
from games.selectors import session_seats
from games.services.sessions import session_create
from tests.factories import UserFactory
from tests.story_play import campaign_of_nights

pytestmark = pytest.mark.django_db(transaction=True)

# Statements of the write transaction besides one per ARCHIVE_BATCH rows of each section: the
# campaign, its created_at, the host's membership, the import's event, the dates put back per model.
WRITE_STATEMENTS_AT_MOST = 40


def archive_of(nights: int, *, events: int = 0) -> dict:
    campaign, _, _ = campaign_of_nights(nights, user=UserFactory())
    archive = json.loads(archive_dumps(campaign_archive(campaign=campaign)))
    extra = archive["events"][-1]
    archive["events"] += [{**extra, "summary": f"Note {i}"} for i in range(events)]
    return archive


class Recorder:
    """Which import steps ran inside a transaction, and the statements the write ran."""

    def __init__(self, monkeypatch):
        self.reads_in_transaction: list[bool] = []
        self.write_queries: list[str] = []
        self.write_in_transaction: list[bool] = []
        row, write = importer.Importer.row, importer.Importer.write

        def recorded_row(importer, *args, **kwargs):
            self.reads_in_transaction.append(connection.in_atomic_block)
            return row(importer, *args, **kwargs)

        def recorded_write(importer, *args, **kwargs):
            self.write_in_transaction.append(connection.in_atomic_block)
            with CaptureQueriesContext(connection) as queries:
                write(importer, *args, **kwargs)
            self.write_queries = [q["sql"] for q in queries.captured_queries]

        monkeypatch.setattr(importer.Importer, "row", recorded_row)
        monkeypatch.setattr(importer.Importer, "write", recorded_write)


@pytest.mark.database
class ImportTransactionTests:
    def test_the_archive_is_read_outside_any_transaction_and_written_in_one(self, monkeypatch):
        recorder = Recorder(monkeypatch)
        campaign_import(archive=archive_of(1), owner=UserFactory())
        assert recorder.reads_in_transaction and not any(recorder.reads_in_transaction)
        assert recorder.write_in_transaction == [True]

    def test_the_write_runs_as_many_statements_for_three_nights_as_for_one(self, monkeypatch):
        """Bulk inserts: the statements of the write do not grow with the rows (here every section
        holds fewer than ARCHIVE_BATCH rows), the structure that keeps the write lock short."""
        small, large = archive_of(1), archive_of(3, events=1500)
        rows = {a is large: sum(len(v) for v in a.values() if isinstance(v, list)) for a in (small, large)}
        assert rows[True] > 5 * rows[False]
        recorder = Recorder(monkeypatch)
        counts = []
        for archive in (small, large):
            campaign_import(archive=archive, owner=UserFactory())
            writes = [q for q in recorder.write_queries if not q.startswith(("SAVEPOINT", "RELEASE"))]
            counts.append(len(writes))
        assert counts[0] == counts[1] <= WRITE_STATEMENTS_AT_MOST, counts

    def test_a_refused_archive_writes_nothing_and_opens_no_transaction(self, monkeypatch):
        archive = archive_of(1)
        archive["actions"][-1]["seq"] = archive["actions"][0]["seq"]  # the log twice at one place
        recorder = Recorder(monkeypatch)
        before = (Campaign.objects.count(), CampaignEvent.objects.count(), GameSession.objects.count())
        with pytest.raises(Exception, match="appears twice"):
            campaign_import(archive=archive, owner=UserFactory())
        assert recorder.write_in_transaction == []
        assert (
            Campaign.objects.count(),
            CampaignEvent.objects.count(),
            GameSession.objects.count(),
        ) == before


class TapsDuringAnImportTests:
    def test_a_table_tapped_while_an_archive_is_written_waits_and_answers(self, monkeypatch):
        """On the SQLite file database: a phone taps at another table while the import writes. One
        tap is sent while the write transaction holds the lock (the write waits until the tap has
        left): it waits for the lock and answers 200, as every other tap does."""
        if connection.vendor != "sqlite":
            pytest.skip("the write lock of the embedded SQLite")
        archive = archive_of(3, events=3000)
        session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], seed=5)
        rules, rng = get_game(session.game), random.Random(5)
        tokens = {s.index: s.token for s in session_seats(session=session)}
        done, taps = threading.Event(), threading.Condition()
        sent = {"begun": 0, "in_flight": False, "during_write": 0}
        codes: list[int] = []
        errors: list[BaseException] = []

        def tap() -> None:
            nonlocal session, tokens
            session.refresh_from_db()
            if session.status != GameSession.Status.ACTIVE:  # a game over: the table starts another
                session = session_create(game="for_the_king", seat_names=["Anna", "Ben", "Cleo"], seed=6)
                tokens = {s.index: s.token for s in session_seats(session=session)}
            seat = next(s for s in rules.active_seats(session.state) if s is not None)
            action = bot_choose_action(rules, session.state, seat, rng)
            client = APIClient()
            client.credentials(HTTP_X_SEAT_TOKEN=tokens[seat])
            with taps:
                sent["begun"] += 1
                sent["in_flight"] = True
                taps.notify_all()
            try:
                response = client.post(
                    f"/api/sessions/{session.pk}/seats/{seat}/actions/submit/",
                    {"action": action, "expected_version": session.version},
                    format="json",
                    HTTP_IDEMPOTENCY_KEY=f"tap-{sent['begun']}",
                )
            finally:
                with taps:
                    sent["in_flight"] = False
            codes.append(response.status_code)

        def phone() -> None:
            try:
                while not done.is_set() or not sent["during_write"]:
                    tap()
            except BaseException as error:  # reported by the test
                errors.append(error)
            finally:
                connection.close()

        write = importer.Importer.write

        def write_while_tapped(importer, *args, **kwargs):
            """Inside the import's transaction: the inserts, then wait for a tap sent since the
            write began (or one in flight, waiting for this lock), so one tap meets the lock."""
            with taps:
                begun = sent["begun"]
            write(importer, *args, **kwargs)
            with taps:
                if not taps.wait_for(lambda: sent["begun"] > begun, timeout=2):
                    assert sent["in_flight"] or errors, "the phone stopped tapping"
                sent["during_write"] += 1

        monkeypatch.setattr(importer.Importer, "write", write_while_tapped)
        thread = threading.Thread(target=phone)
        thread.start()
        try:
            copy = campaign_import(archive=archive, owner=UserFactory())
        finally:
            done.set()
            thread.join(timeout=120)
        assert not errors, errors
        assert codes and all(code == 200 for code in codes), codes
        assert copy.events.count() == len(archive["events"]) + 1
        tables = GameSession.objects.filter(game="for_the_king")
        assert sum(t.actions.count() - 1 for t in tables) == len(codes)  # the deal, then one per tap
