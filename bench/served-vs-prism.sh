#!/usr/bin/env bash
# Throughput of one operation served from a spec at run time (`tidings-sandbox --spec`) against
# Prism serving the same service's exported OpenAPI document, side by side in one run: wrk,
# 2 threads, 16 connections, DURATION seconds each, alternated ROUNDS times. Both answer
# `GET /v1/templates` of the messaging spec with a bearer key (Prism from the document's example,
# ours from its store). Prints requests/s of each round and the ratio.
#
#   bench/served-vs-prism.sh              # 3 rounds of 5 s
#   ROUNDS=5 DURATION=10 bench/served-vs-prism.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
command -v wrk >/dev/null || { echo "needs wrk (Debian package wrk)"; exit 1; }
[ -x tests/peers/prism/node_modules/.bin/prism ] \
  || npm install --prefix tests/peers/prism --no-audit --no-fund --loglevel=error >/dev/null
cargo build --quiet --release -p tidings-sandbox --bin tidings-sandbox
WORK=$ROOT/target/bench-served; mkdir -p "$WORK"

target/release/tidings-sandbox --quiet --no-ui --no-smtp --rate-limit off --spec spec/messaging.yaml \
  >"$WORK/served.env" 2>/dev/null &
OURS=$!
PRISM_PORT=4591
tests/peers/prism/node_modules/.bin/prism mock -p "$PRISM_PORT" spec/openapi/messaging.openapi.json \
  >"$WORK/prism.log" 2>&1 &
PRISM=$!
trap 'kill $OURS $PRISM 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q COMMS_MESSAGING_API_KEY "$WORK/served.env" 2>/dev/null \
    && curl -sf -o /dev/null "http://127.0.0.1:$PRISM_PORT/v1/templates" -H 'Authorization: Bearer x' && break
  sleep 0.2
done
# The spec's own variables name both the built-in messaging sandbox and the served copy: the
# served one is printed last.
BASE=$(grep COMMS_MESSAGING_BASE_URL "$WORK/served.env" | tail -1 | cut -d= -f2)
KEY=$(grep COMMS_MESSAGING_API_KEY "$WORK/served.env" | tail -1 | cut -d= -f2)
rps() { wrk -t2 -c16 -d"${DURATION}s" -H "Authorization: Bearer $2" "$1/v1/templates" | awk '/Requests\/sec/ {print $2}'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  ours=$(rps "$BASE" "$KEY")
  prism=$(rps "http://127.0.0.1:$PRISM_PORT" x)
  echo "round $r: --spec $ours req/s, Prism $prism req/s, ratio $(python3 -c "print(round($ours/$prism, 1))")"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
