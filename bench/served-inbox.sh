#!/usr/bin/env bash
# --spec throughput with the inbox recording each call (the default, the page served) and
# without (--no-ui): wrk, 2 threads, 16 connections, 5 s on GET /v1/templates of the messaging
# spec, alternated three times. Needs wrk and a release build:
#   cargo build --release -p tidings-sandbox --bin tidings-sandbox && bench/served-inbox.sh
set -euo pipefail
cd "$(dirname "$0")/.."
run() { # extra flags -> rps
  local out=/tmp/served-$$.env
  target/release/tidings-sandbox --quiet --no-smtp --rate-limit off "$@" --spec spec/messaging.yaml >"$out" 2>/dev/null &
  local pid=$!
  for _ in $(seq 100); do grep -q COMMS_MESSAGING_API_KEY "$out" 2>/dev/null && [ "$(grep -c COMMS_MESSAGING_BASE_URL "$out")" -ge 2 ] && break; sleep 0.1; done
  local base key
  base=$(grep COMMS_MESSAGING_BASE_URL "$out" | tail -1 | cut -d= -f2)
  key=$(grep COMMS_MESSAGING_API_KEY "$out" | tail -1 | cut -d= -f2)
  wrk -t2 -c16 -d5s -H "Authorization: Bearer $key" "$base/v1/templates" | awk '/Requests\/sec/ {print $2}'
  kill $pid; wait $pid 2>/dev/null || true
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in 1 2 3; do
  with=$(run); without=$(run --no-ui)
  echo "round $r: inbox recording ${with} req/s, --no-ui ${without} req/s, ratio $(python3 -c "print(round($with/$without,3))")"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
