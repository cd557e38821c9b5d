#!/usr/bin/env bash
# The translation catalogues (docs/translations.md):
#   scripts/messages.sh update    the catalogues follow the code: new messages added (untranslated),
#                                 gone ones kept as obsolete (#~) until deleted
#   scripts/messages.sh compile   the .mo files the server reads, from the .po files
#   scripts/messages.sh pseudo    the pseudo-language's catalogue (tests only), from the English messages
# gettext (msgfmt, xgettext) is installed from Debian when missing, as scripts/services.sh does for
# PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
LANGS=(it de fr es)
# What is not the project's own text: the virtualenv, collected static files, tests, node packages.
IGNORE=(--ignore=.venv --ignore=staticfiles --ignore=tests --ignore=node_modules --ignore=media
  --ignore=screenshots --ignore=docker --ignore=locale)

ensure_gettext() {
  command -v msgfmt >/dev/null && command -v xgettext >/dev/null && return
  echo "Installing gettext (Debian package)..."
  if [ "$(id -u)" != 0 ]; then echo "Need root to apt-get install gettext" >&2; exit 1; fi
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gettext >/dev/null
}

case "${1:-}" in
  update)
    ensure_gettext
    args=()
    for lang in "${LANGS[@]}"; do args+=(-l "$lang"); done
    "$PY" manage.py makemessages "${args[@]}" "${IGNORE[@]}" --no-location --no-wrap -v0
    ;;
  compile)
    ensure_gettext
    "$PY" manage.py compilemessages "${IGNORE[@]}" -v0
    ;;
  pseudo)
    ensure_gettext
    "$PY" -m config.catalogues pseudo "${2:?usage: scripts/messages.sh pseudo DIR}"
    ;;
  *)
    echo "usage: scripts/messages.sh update|compile|pseudo" >&2
    exit 2
    ;;
esac
