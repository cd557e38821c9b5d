#!/usr/bin/env bash
# make bench: the benchmarks against the project's own PostgreSQL and Redis (stopped afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh start >/dev/null
trap 'scripts/services.sh stop' EXIT
# shellcheck disable=SC1091
source .services/env
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python tests/bench/run.py "$@"
