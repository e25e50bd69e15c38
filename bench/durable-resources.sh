#!/usr/bin/env bash
# Durable resource changes against in-memory ones: two release sandboxes serve one small spec
# (bench/durable/notes.yaml), one with `--data` on a fresh directory; wrk (2 threads,
# CONNECTIONS connections) creates and deletes notes on each for DURATION seconds, alternated
# ROUNDS times. Every request is one change of the resource store, so with `--data` every answer
# waits for its SQLite commit. Prints changes/s of each round and the ratio.
#
#   bench/durable-resources.sh                  # 3 rounds of 5 s, 16 connections
#   ROUNDS=5 CONNECTIONS=64 bench/durable-resources.sh
#   OTHER=/path/to/tidings-sandbox bench/durable-resources.sh   # adds that build with --data
#                                                               # (an earlier commit) to each round
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-16}
PROFILE=${PROFILE:-release}
command -v wrk >/dev/null || { echo "needs wrk (Debian package wrk)"; exit 1; }
if [ "$PROFILE" = release ]; then
  cargo build --quiet --release -p tidings-sandbox --bin tidings-sandbox
else
  cargo build --quiet -p tidings-sandbox --bin tidings-sandbox
fi
BIN=target/$([ "$PROFILE" = release ] && echo release || echo debug)/tidings-sandbox
WORK=$(mktemp -d); trap 'kill $MEM $DISK 2>/dev/null || true; rm -rf "$WORK"' EXIT
serve() { "$BIN" --quiet --no-ui --no-smtp --rate-limit off --spec bench/durable/notes.yaml "$@"; }
serve >"$WORK/memory.env" 2>/dev/null & MEM=$!
serve --data "$WORK/data" >"$WORK/disk.env" 2>/dev/null & DISK=$!
OTHER_PID=
if [ -n "${OTHER:-}" ]; then
  "$OTHER" --quiet --no-ui --no-smtp --rate-limit off --spec bench/durable/notes.yaml \
    --data "$WORK/other" >"$WORK/other.env" 2>/dev/null & OTHER_PID=$!
fi
trap 'kill $MEM $DISK $OTHER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
  grep -q NOTES_BASE_URL "$WORK/memory.env" && grep -q NOTES_BASE_URL "$WORK/disk.env" \
    && { [ -z "${OTHER:-}" ] || grep -q NOTES_BASE_URL "$WORK/other.env"; } && break
  sleep 0.1
done
base() { grep NOTES_BASE_URL "$1" | tail -1 | cut -d= -f2; }
key() { grep NOTES_API_KEY "$1" | tail -1 | cut -d= -f2; }
# Changes/s; fails when any answer was not a success (then the rate would measure refusals).
rate() {
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s bench/durable/create-delete.lua \
    -H "Authorization: Bearer $(key "$1")" "$(base "$1")")
  if grep -q "Non-2xx" <<<"$out"; then echo "refused answers: $out" >&2; exit 1; fi
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $PROFILE; $CONNECTIONS connections"
for r in $(seq "$ROUNDS"); do
  memory=$(rate "$WORK/memory.env")
  disk=$(rate "$WORK/disk.env")
  line="round $r: in memory $memory changes/s, --data $disk, ratio $(python3 -c "print(round($disk/$memory, 2))")"
  if [ -n "${OTHER:-}" ]; then
    other=$(rate "$WORK/other.env")
    line="$line; OTHER --data $other, ratio $(python3 -c "print(round($other/$memory, 2))")"
  fi
  echo "$line"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
ls -la "$WORK/data/resources" | tail -n +2
