# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python
# make run PORT=8001: serve on another port (another app holds 8000); the links it prints follow.
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: install run test soak lint format bench clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $$(scripts/find-python.sh) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $(STAMP)

install: $(STAMP)

# The embedded default on the home network: SQLite, eager tasks, DEBUG off (no traceback or debug
# page for other machines; static files served by WhiteNoise), the LAN address in ALLOWED_HOSTS.
run: export CHRONICLE_EMBEDDED := 1
run: install
	PY=$(PY) scripts/messages.sh compile
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) manage.py load_demo
	$(PY) manage.py administrator_link --base-url http://localhost:$(PORT)
	$(PY) -m config.network $(PORT)
	CONN_MAX_AGE=0 DATABASE_POOL=1 $(VENV)/bin/uvicorn config.asgi:application --host 0.0.0.0 --port $(PORT) --lifespan off --timeout-graceful-shutdown 2

test: install
	scripts/test.sh

soak: install
	CHRONICLE_PROPERTY_EXAMPLES=2000 $(VENV)/bin/pytest -n 2 -q -p no:django tests/unit -k "random"

bench: install
	scripts/bench.sh

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	scripts/services.sh stop
	rm -rf $(VENV) db.sqlite3 staticfiles
