#!/usr/bin/env bash
# Print a Python >= 3.12 interpreter (Django 6 needs it): PATH first, then pyenv's versions.
for candidate in "${PYTHON:-}" python3.13 python3.12 python3 /root/.pyenv/versions/3.13*/bin/python3 /root/.pyenv/versions/3.12*/bin/python3 /usr/bin/python3.12 /usr/bin/python3.13; do
  [ -n "$candidate" ] || continue
  if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; then
    command -v "$candidate" 2>/dev/null || echo "$candidate"
    exit 0
  fi
done
echo "No Python 3.12 or newer found: install python3.12 (Debian) or set PYTHON=/path/to/python3.12" >&2
exit 1
