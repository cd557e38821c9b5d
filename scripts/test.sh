#!/usr/bin/env bash
# The whole suite: lint, then every test against SQLite, then against a real PostgreSQL the tests that
# need it (marked postgres) and those whose behaviour may differ between the two databases (marked
# database: JSON storage, transactions, locks, integer ranges, query counts), with the project's own
# PostgreSQL and Redis (stopped at the end, pass or fail). Pages and settings tests run once.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin
export CI="${CI:-}"

$PY/ruff check .
$PY/ruff format --check .
$PY/mypy

# The translation catalogues: gettext installed when missing, every .mo compiled from its .po.
PY=$PY/python scripts/messages.sh compile
scripts/services.sh chromium
# axe-core for the accessibility checks, from the npm registry at the version its lock file pins.
npm ci --prefix tests/e2e/axe --no-audit --no-fund --loglevel=error
# openapi-typescript, openapi-fetch and tsc for the generated TypeScript client's check, pinned the same way.
# (openapi-python-client comes with requirements-dev.txt; tests/integration/api/test_generated_client.py
# generates both clients and plays whole games through the Python one: about 3 minutes of one worker.)
npm ci --prefix tests/integration/api/typescript --no-audit --no-fund --loglevel=error
scripts/services.sh start >/dev/null
trap 'scripts/services.sh stop' EXIT
# shellcheck disable=SC1091
source .services/env
export CHRONICLE_TEST_REDIS_URL="$REDIS_URL"
unset REDIS_URL

echo "== Suite on SQLite =="
env -u DATABASE_URL $PY/pytest -n 3 --dist worksteal -q -m "not postgres" "$@"
echo "== Database tests on PostgreSQL =="
$PY/pytest -n 2 -q -m "postgres or database" tests/integration "$@"
