#!/usr/bin/env bash
# Start or stop the project's own throwaway PostgreSQL cluster and Redis server, on their own
# ports, in a temporary folder. Never touches a service it did not start.
#   scripts/services.sh start   -> writes .services/env (DATABASE_URL, REDIS_URL) and prints it
#   scripts/services.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=.services
PG_PORT=${CHRONICLE_PG_PORT:-55432}
REDIS_PORT=${CHRONICLE_REDIS_PORT:-56379}

pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/initdb" ] && { echo "$dir"; return; }; done
  return 1
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ensure_packages() {
  local missing=()
  pg_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} (Debian packages)..."
    if [ "$(id -u)" != 0 ]; then echo "Need root to apt-get install ${missing[*]}" >&2; exit 1; fi
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # The Debian package may start its own default services: leave them as they are (not ours to stop).
  fi
}

start() {
  ensure_packages
  stop_quiet
  mkdir -p "$STATE"
  local tmp bin
  tmp=$(mktemp -d /tmp/chronicle-services.XXXXXX)
  chmod 755 "$tmp"
  echo "$tmp" > "$STATE/dir"
  bin=$(pg_bin)
  mkdir "$tmp/pg"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$tmp/pg"; fi
  as_postgres "$bin/initdb" -D "$tmp/pg" -A trust -U postgres --no-sync >/dev/null
  as_postgres "$bin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg/server.log" -w \
    -o "-p $PG_PORT -k $tmp/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres chronicle
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --dir "$tmp" --pidfile "$tmp/redis.pid" --logfile "$tmp/redis.log"
  for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
  cat > "$STATE/env" <<ENV
export DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/chronicle
export REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0
ENV
  cat "$STATE/env"
}

stop_quiet() {
  [ -f "$STATE/dir" ] || return 0
  local tmp bin
  tmp=$(cat "$STATE/dir")
  bin=$(pg_bin || true)
  if [ -n "$bin" ] && [ -f "$tmp/pg/postmaster.pid" ]; then
    as_postgres "$bin/pg_ctl" -D "$tmp/pg" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -f "$tmp/redis.pid" ]; then kill "$(cat "$tmp/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$tmp" "$STATE"
}

ensure_chromium() {
  # Browser tests use Debian's Chromium (never a browser download).
  if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ]; then echo "Need root to apt-get install chromium" >&2; exit 1; fi
    echo "Installing chromium (Debian package)..."
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  fi
}

case "${1:-}" in
  start) start ;;
  chromium) ensure_chromium ;;
  stop) stop_quiet ;;
  *) echo "usage: $0 start|stop|chromium" >&2; exit 2 ;;
esac
