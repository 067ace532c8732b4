#!/usr/bin/env bash
# Every benchmark with one command: installs wrk and valgrind if they are missing, makes sure PostgreSQL is
# up, then `uv run python -m bench "$@"` (which creates and drops the pbm_bench database).
# The tables go to the terminal and to bench/results/run.md.
#   bash bench/run_all.sh            # the full suite (a few minutes)
#   bash bench/run_all.sh --quick    # tiny sizes
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null || ! command -v valgrind >/dev/null; then
  (apt-get update -qq && apt-get install -y -qq wrk valgrind >/dev/null) \
    || { echo "could not install wrk and valgrind"; exit 1; }
fi
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
mkdir -p bench/results
uv run python -m bench "$@" 2>&1 | tee bench/results/run.md
