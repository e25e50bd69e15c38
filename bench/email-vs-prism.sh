#!/usr/bin/env bash
# HTTP email ingestion (issue 28): `POST /v1/emails` to the sandbox's email service against
# Prism serving the exported email document (spec/openapi/email.openapi.json), side by side in
# one run: wrk, 2 threads, 16 connections, DURATION seconds each, alternated ROUNDS times. The
# same JSON body (from, to, subject, text) and a bearer key to both; ours keeps every email
# (inbox and service state, in memory, and with DATA=1 on disk under `--data`, each answer after
# its commit), Prism validates and answers its example. Prints requests/s and the ratio, and
# the share of non-2xx answers (which must be 0).
#
#   bench/email-vs-prism.sh                 # 3 rounds of 5 s, in memory
#   DATA=1 ROUNDS=5 bench/email-vs-prism.sh # durable (`--data` in a fresh directory)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
command -v wrk >/dev/null || { echo "needs wrk (Debian package wrk)"; exit 1; }
[ -x tests/peers/prism/node_modules/.bin/prism ] \
  || npm install --prefix tests/peers/prism --no-audit --no-fund --loglevel=error >/dev/null
cargo build --quiet --release -p tidings-sandbox --bin tidings-sandbox
WORK=$ROOT/target/bench-email-vs-prism; rm -rf "$WORK"; mkdir -p "$WORK"
DATA_FLAGS=()
[ "${DATA:-0}" = 1 ] && DATA_FLAGS=(--data "$WORK/data")

target/release/tidings-sandbox --quiet --no-ui --no-smtp --rate-limit off "${DATA_FLAGS[@]}" \
  >"$WORK/ours.env" 2>"$WORK/ours.log" &
OURS=$!
PRISM_PORT=4592
tests/peers/prism/node_modules/.bin/prism mock -p "$PRISM_PORT" spec/openapi/email.openapi.json \
  >"$WORK/prism.log" 2>&1 &
PRISM=$!
trap 'kill $OURS $PRISM 2>/dev/null || true' EXIT
BODY='{"from":"app@example.com","to":["someone@example.com"],"subject":"Your code","text":"Your code is 123456."}'
for _ in $(seq 150); do
  grep -q COMMS_EMAIL_API_KEY "$WORK/ours.env" 2>/dev/null \
    && curl -sf -o /dev/null "http://127.0.0.1:$PRISM_PORT/v1/emails" -H 'Authorization: Bearer x' \
         -H 'Content-Type: application/json' -d "$BODY" && break
  sleep 0.2
done
BASE=$(grep COMMS_EMAIL_BASE_URL "$WORK/ours.env" | tail -1 | cut -d= -f2)
KEY=$(grep COMMS_EMAIL_API_KEY "$WORK/ours.env" | tail -1 | cut -d= -f2)
cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$BODY'
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  io.write(string.format("non2xx %d\n", summary.errors.status))
end
LUA
run() {
  wrk -t2 -c16 -d"${DURATION}s" -s "$WORK/post.lua" -H "Authorization: Bearer $2" "$1/v1/emails" >"$WORK/wrk.out"
  echo "$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.out") $(awk '/^non2xx/ {print $2}' "$WORK/wrk.out")"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  read -r ours ours_bad < <(run "$BASE" "$KEY")
  read -r prism prism_bad < <(run "http://127.0.0.1:$PRISM_PORT" x)
  echo "round $r: ours $ours req/s ($ours_bad non-2xx), Prism $prism req/s ($prism_bad non-2xx), ratio $(python3 -c "print(round($ours/$prism, 1))")"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "emails kept: $(curl -s "$BASE/v1/emails?limit=1" -H "Authorization: Bearer $KEY" | head -c 200)"
