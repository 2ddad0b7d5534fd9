#!/usr/bin/env bash
# Every test, on a fresh machine: installs the Python test requirements into the active Python,
# Debian's Chromium and a CJK font for the browser tests, nginx for the proxy test and PostgreSQL
# for the classroom's deploy test (where missing), then runs ruff and pytest. Extra arguments go to pytest, e.g.
# `bash tools/test-all.sh tests/core`.
set -euo pipefail
cd "$(dirname "$0")/.."

# --no-compile: Python compiles a module when it is first imported; compiling every installed
# file up front (Plotly's thousands) was most of the install's time.
python -m pip install --quiet --disable-pip-version-check --no-compile -r requirements-dev.txt

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

python -m ruff check .
python -m ruff format --check .
# Two workers (the suite's target machine has 2 cores). Three were tried: they keep the
# processors busier (idle 3 % of a run against 13-16 %) but took 741-908 s of pytest against
# 668-898 s for two, within this machine's noise, and made the browser tests' waits race (two
# fresh-clone runs, a different test failing in each). Each browser module runs on one worker
# (pytest_xdist_make_scheduler in tests/conftest.py). Hypothesis draws the same examples every
# run (the "repeatable" profile of tests/conftest.py). The slowest tests are listed last.
python -m pytest -n 2 --hypothesis-profile=repeatable --durations=25 "$@"
