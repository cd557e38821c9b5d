"""The client a mobile developer generates from /api/schema/ (issue 29, "Done means"): openapi-python-client
with its default configuration, and a naive app built on it that plays whole games.

``generated_client`` (session-scoped) writes the schema as ``manage.py spectacular --file`` does, runs
``openapi-python-client generate`` with no configuration file (ruff on PATH, so its default post-hooks
run), imports the package it wrote and fails, never skips, when generation reports an error or a warning
outside ``ALLOWED_WARNINGS``.

``NaiveApp`` plays a session through the generated client only, as an app that trusts the contract
would: it asks who must act now (``to_act``; ``active_seats`` where the schema has no ``to_act`` yet),
draws one of that seat's offered choices at random (seeded) and one value per parameter (uniform in an
amount's bounds, one of a pick's options, a set of cards, one of a payment's options, a typed entry from
the table's physical card), and submits it with a fresh Idempotency-Key and the version it saw. Every
answer is parsed by the generated models: an exception while parsing, or a status the operation does not
declare, is a parse failure. A refused submit is a 4xx answer in the error shape."""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import random
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from django.core.management import call_command

VENV_BIN = Path(sys.executable).parent
GENERATOR = VENV_BIN / "openapi-python-client"
GENERATOR_ERROR = "Error(s) encountered while generating"
GENERATOR_WARNING = "Warning(s) encountered while generating"
GENERATOR_TRAILER = "If you believe this was a mistake"
# What openapi-python-client 0.29.1 warns about in our schema today: nothing. Should a schema change
# bring a warning the lead accepts for a while, it goes here with the reason, and leaves after the fix.
ALLOWED_WARNINGS: list[str] = []

# Errors a parse can raise in the generated models (a missing key, a value outside an enum, a nested
# object of the wrong type, a date that is not one).
PARSE_ERRORS = (KeyError, TypeError, ValueError, AttributeError)


@dataclass
class Generated:
    """The generated package, imported, and what its generator printed."""

    root: Path
    package: ModuleType
    output: str
    schema: Path

    @property
    def name(self) -> str:
        return self.package.__name__

    def operation(self, operation_id: str) -> ModuleType:
        """An operation's module, whatever tag folder it lies in (``api/<tag>/<operation_id>.py``)."""
        found = sorted((self.root / self.name / "api").glob(f"*/{operation_id}.py"))
        if not found:
            raise LookupError(f"the generated client has no operation {operation_id!r}")
        return importlib.import_module(f"{self.name}.api.{found[0].parent.name}.{operation_id}")

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module(f"{self.name}.models"), name)

    def components(self) -> dict[str, Any]:
        return yaml.safe_load(self.schema.read_text())["components"]["schemas"]

    def client(self, base_url: str, token: str | None = None) -> Any:
        """A phone's client (no login) or, with a device token, the generated AuthenticatedClient, as
        its README shows (its default ``Bearer`` prefix)."""
        if token is None:
            return self.package.Client(base_url=base_url, timeout=30)
        return self.package.AuthenticatedClient(base_url=base_url, token=token, timeout=30)


def write_schema(path: Path) -> Path:
    call_command("spectacular", "--file", str(path))
    return path


def run_generator(schema: Path, output: Path) -> subprocess.CompletedProcess[str]:
    """``openapi-python-client generate`` with its defaults (no --config), ruff found on PATH."""
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [str(GENERATOR), "generate", "--path", str(schema), "--output-path", str(output)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def generation_warnings(printed: str) -> list[str]:
    """The lines of the generator's warning report (between its banner and its closing advice)."""
    if GENERATOR_WARNING not in printed:
        return []
    report = printed.split(GENERATOR_WARNING, 1)[1].split(GENERATOR_TRAILER, 1)[0]
    return [line.strip() for line in report.splitlines() if line.strip()]


def import_generated(output: Path) -> ModuleType:
    (package_dir,) = [p for p in output.iterdir() if (p / "client.py").is_file()]
    if str(output) not in sys.path:
        sys.path.insert(0, str(output))
    return importlib.import_module(package_dir.name)


def generate_from(schema: Path, folder: Path) -> Generated:
    done = run_generator(schema, folder / "client")
    printed = done.stdout + done.stderr
    if done.returncode != 0 or GENERATOR_ERROR in printed:
        pytest.fail(f"openapi-python-client refused the schema:\n{printed}", pytrace=False)
    package = import_generated(folder / "client")
    return Generated(root=folder / "client", package=package, output=printed, schema=schema)


def generate_client(folder: Path) -> Generated:
    return generate_from(write_schema(folder / "schema.yaml"), folder)


@pytest.fixture(scope="session")
def generated_client(tmp_path_factory) -> Generated:
    return generate_client(tmp_path_factory.mktemp("generated"))


# ---- A naive app ------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one game cost and how the contract held."""

    game: str
    requests: int = 0
    submits: int = 0
    refused: list[str] = field(default_factory=list)
    parse_failures: list[str] = field(default_factory=list)
    types: Counter[str] = field(default_factory=Counter)
    turns_without_choice: int = 0
    over: bool = False
    seconds: float = 0.0

    @property
    def refused_share(self) -> float:
        return len(self.refused) / self.submits if self.submits else 0.0

    def summary(self) -> str:
        return (
            f"{self.game}: {self.submits} submits, {len(self.refused)} refused "
            f"({self.refused_share:.1%}), {self.requests} requests, {len(self.parse_failures)} parse "
            f"failures, over={self.over}, {self.seconds:.1f} s; submitted: {dict(self.types.most_common())}"
        )


def shared_tally(folder: Path, game: str, play: Callable[[], Tally]) -> Tally:
    """The game's Tally, played once for all the test workers of a run: the first worker to ask plays
    it (holding a lock), the others read what it wrote."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{game}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        saved = folder / f"{game}.json"
        if saved.exists():
            data = json.loads(saved.read_text())
            return Tally(**{**data, "types": Counter(data["types"])})
        tally = play()
        saved.write_text(json.dumps({**vars(tally), "types": dict(tally.types)}))
        return tally


Typist = Callable[[str, dict[str, Any], random.Random], Any]


def no_typist(schema: str, table: dict[str, Any], rng: random.Random) -> Any:
    raise AssertionError(f"this game offered a typed parameter ({schema}) nobody types")


def draw_value(param: dict[str, Any], rng: random.Random, typed: Callable[[str], Any]) -> Any:
    """One value of a parameter, as a naive app's control gives it: uniform within its bounds."""
    kind = param["kind"]
    if kind == "amount":
        return rng.randint(param["min"], param["max"])
    if kind == "pick":
        return rng.choice(param["options"])
    if kind == "cards":
        return rng.sample(list(param["options"]), rng.randint(param["min"], param["max"]))
    if kind == "payment":
        return rng.choice(param["options"])["cards"]
    if kind == "text":
        return "Typed at the table"[: param["max_length"]]
    if kind == "flag":
        return rng.random() < 0.5
    if kind == "typed":
        return typed(param["schema"])
    raise AssertionError(f"a parameter of an undocumented kind: {param!r}")


class NaiveApp:
    """The host's app (its device token) and each seat's phone (its seat token) at one session."""

    def __init__(self, generated: Generated, base_url: str, host_token: str, *, seed: int, game: str):
        self.generated = generated
        self.host = generated.client(base_url, host_token)
        self.phone = generated.client(base_url)
        self.rng = random.Random(seed)
        self.tally = Tally(game=game)
        self.error_model = generated.model("Error")
        self.session_id = 0
        self.seat_tokens: dict[int, str] = {}
        self.typist: Typist = no_typist

    # -- requests --

    def call(self, operation_id: str, **kwargs: Any) -> Any:
        """The parsed answer of one operation (None after a parse failure, which is counted)."""
        self.tally.requests += 1
        try:
            response = self.generated.operation(operation_id).sync_detailed(**kwargs)
        except PARSE_ERRORS as error:
            self.tally.parse_failures.append(f"{operation_id}: {error!r}")
            return None
        if response.parsed is None:
            self.tally.parse_failures.append(f"{operation_id}: undeclared status {response.status_code}")
        return response.parsed

    def ok(self, operation_id: str, **kwargs: Any) -> Any:
        """An answer that must not be an error (set-up and reads)."""
        parsed = self.call(operation_id, **kwargs)
        assert parsed is not None and not isinstance(parsed, self.error_model), (operation_id, parsed)
        return parsed

    def seat_call(self, operation_id: str, seat: int, **kwargs: Any) -> Any:
        return self.call(
            operation_id,
            session_id=self.session_id,
            seat_index=seat,
            client=self.phone,
            x_seat_token=self.seat_tokens[seat],
            **kwargs,
        )

    # -- a session --

    def sit(self, created: Any) -> None:
        """The session create (or night start) answer: its id and each seat's token (the QR codes)."""
        self.session_id = created.id
        self.seat_tokens = {seat.index: seat.token for seat in created.seats}

    def table(self) -> dict[str, Any] | None:
        parsed = self.call("session_table", session_id=self.session_id, client=self.host)
        if parsed is None or isinstance(parsed, self.error_model):
            return None
        return parsed.to_dict()

    def actor(self, table: dict[str, Any]) -> int | None:
        """Who must act now: ``to_act`` (shared decision 3), else one of ``active_seats``."""
        acting = table.get("to_act", table["active_seats"])
        return self.rng.choice(acting) if acting else None

    def choices(self, actor: int | None, table: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        if actor is None:
            return table["legal_actions"], table["version"]
        parsed = self.seat_call("seat_legal_actions", actor)
        if parsed is None or isinstance(parsed, self.error_model):
            return [], table["version"]
        return [titled["choice"] for titled in parsed.to_dict()["choices"]], parsed.version

    def action(self, chosen: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
        def typed(schema: str) -> Any:
            return self.typist(schema, table, self.rng)

        values = {name: draw_value(p, self.rng, typed) for name, p in chosen["params"].items()}
        return {"type": chosen["type"], "seat": chosen["seat"], **values}

    def submit(self, actor: int | None, action: dict[str, Any], version: int) -> None:
        body = self.generated.model("SubmitInputRequest").from_dict(
            {"action": action, "expected_version": version}
        )
        key = str(uuid.uuid4())
        if actor is None:
            parsed = self.call(
                "session_table_action",
                session_id=self.session_id,
                client=self.host,
                body=body,
                idempotency_key=key,
            )
        else:
            parsed = self.seat_call("seat_action_submit", actor, body=body, idempotency_key=key)
        self.tally.submits += 1
        self.tally.types[action["type"]] += 1
        if isinstance(parsed, self.error_model):
            self.tally.refused.append(f"{action['type']}: {parsed.code} {parsed.message}")

    def turn(self) -> bool:
        """One move of whoever must act; False once the game is over."""
        table = self.table()
        if table is None:
            return True
        if table["over"]:
            return False
        actor = self.actor(table)
        choices, version = self.choices(actor, table)
        if not choices:
            self.tally.turns_without_choice += 1
            return True
        self.submit(actor, self.action(self.rng.choice(choices), table), version)
        return True

    def play(self, *, most_turns: int) -> Tally:
        """Turns until the game is over (at most ``most_turns``, a bound on a broken game)."""
        started = time.monotonic()
        for _ in range(most_turns):
            if not self.turn():
                self.tally.over = True
                break
        self.tally.seconds = time.monotonic() - started
        return self.tally
