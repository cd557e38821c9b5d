#!/usr/bin/env bash
# make bench: the benchmarks against the project's own PostgreSQL and Redis (stopped afterwards).
#   scripts/bench.sh                       all sections, written to docs/benchmarks.md
#   scripts/bench.sh live_updates ...      only the named sections, printed (the report is kept)
#   CHRONICLE_BENCH_QUICK=1 scripts/bench.sh tap_cpu_before_after capacity_per_core
#                                          a short run of the two one-core sections (does it work?)
#   CHRONICLE_BENCH_BASE=<commit>          the commit the "before" of tap_cpu_before_after is served
#                                          from (a temporary git worktree; default 8bd2735)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .services/dir ]; then
  # services.sh start would stop them: they may be another run's (make test) in this tree.
  echo "bench: the project's services are already running (.services/ exists; make test?)." >&2
  echo "bench: wait for that run to end, or run 'scripts/services.sh stop' if they are stale." >&2
  exit 1
fi
scripts/services.sh start >/dev/null
trap 'scripts/services.sh stop' EXIT
# shellcheck disable=SC1091
source .services/env
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py collectstatic --noinput -v0  # the pages of tap_to_glass need their scripts
.venv/bin/python tests/bench/run.py "$@"
