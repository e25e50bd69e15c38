#!/usr/bin/env bash
# A provider-sized client, whole and trimmed: SendGrid's own document (Swagger 2.0, 334
# operations) imported in full and with `--include` keeping 5 operations (mail send and the
# marketing lists' create, list, get, delete) and the types they reach. For each: import and
# generate time, the generated crate alone rebuilt (`touch` + `cargo build`, no incremental,
# debug, the lean runtime) ROUNDS times alternately, and rustc's peak memory (GNU time).
#
#   bench/provider-scale.sh DOC.json [ROUNDS]     # DOC: sendgrid/sendgrid-oai oai.json
#   SERVICE=twilio FIVE="CreateMessage ListMessage FetchMessage UpdateMessage DeleteMessage" \
#     bench/provider-scale.sh tests/providers/full/twilio_api_v2010.json 3
set -euo pipefail
DOC=$(realpath "${1:?usage: bench/provider-scale.sh SENDGRID_OAI_JSON [ROUNDS]}")
ROUNDS=${2:-3}
SERDE=${SERDE:-both}   # SERDE=client: the serde direction the client needs only
IMPORT_FLAGS=${IMPORT_FLAGS:-}   # e.g. --drop-undeclared-keys
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-provider-scale
mkdir -p "$WORK"
cd "$ROOT"
cargo build --quiet --release -p tidings-codegen --bin tidings-codegen
GEN=$ROOT/target/release/tidings-codegen
SERVICE=${SERVICE:-sendgrid}   # the service (and module) name the document is imported as
FIVE=${FIVE:-POST_mail-send POST_mc-lists GET_mc-lists GET_mc-lists-id DELETE_lists-id}
ONLY=()
for id in $FIVE; do ONLY+=(--include "$id"); done

crate() { # name, import args...
  local name=$1; shift
  local dir=$WORK/$name
  rm -rf "$dir" && mkdir -p "$dir/spec" "$dir/src"
  local t0; t0=$(date +%s%N)
  "$GEN" import openapi "$DOC" --service "$SERVICE" $IMPORT_FLAGS "$@" >"$dir/spec/$SERVICE.yaml" 2>/dev/null
  "$GEN" generate "$dir/spec" --out "$dir/gen" --serde "$SERDE" >/dev/null
  local t1; t1=$(date +%s%N)
  echo "$name: import + generate $(( (t1 - t0) / 1000000 )) ms, $(grep -c '^  [a-z_0-9]*:$' "$dir/spec/$SERVICE.yaml" || true) top-level entries, $(cat "$dir"/gen/*.rs | wc -l) generated lines"
  cp "$dir"/gen/*.rs "$dir/src/"
  printf 'include!("%s.rs");\n' "$SERVICE" >"$dir/src/lib.rs"
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
tidings-runtime = { path = "$ROOT/runtime", default-features = false }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
futures-core = "0.3"

[features]
# SERDE=client puts the direction a client does not need behind it.
server = []

[workspace]
TOML
  cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
  (cd "$dir" && CARGO_INCREMENTAL=0 cargo build --quiet 2>/dev/null)   # dependencies, once
}
rebuild() { # name -> seconds
  local dir=$WORK/$1
  touch "$dir/src/lib.rs"
  local t0; t0=$(date +%s%N)
  (cd "$dir" && CARGO_INCREMENTAL=0 cargo build --quiet 2>/dev/null)
  local t1; t1=$(date +%s%N)
  python3 -c "print(round(($t1 - $t0) / 1e9, 2))"
}
peak() { # name -> rustc's peak RSS in MiB
  local dir=$WORK/$1
  touch "$dir/src/lib.rs"
  (cd "$dir" && CARGO_INCREMENTAL=0 RUSTC_WRAPPER="$WORK/rss-wrapper" cargo build --quiet 2>/dev/null)
  sort -n "$WORK/rss.$1" | tail -1 | awk '{printf "%.0f", $1/1024}'
}
cat >"$WORK/rss-wrapper" <<'SH'
#!/usr/bin/env bash
# Records the peak resident memory (KiB) of each rustc run for the crate under test.
out=$(mktemp); /usr/bin/time -f %M -o "$out" "$@"; status=$?
crate=$(basename "$PWD"); cat "$out" >>"$(dirname "$0")/rss.$crate"; rm -f "$out"; exit $status
SH
chmod +x "$WORK/rss-wrapper"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
crate "${SERVICE}_full"
crate "${SERVICE}_five" "${ONLY[@]}"
for r in $(seq "$ROUNDS"); do
  full=$(rebuild "${SERVICE}_full"); five=$(rebuild "${SERVICE}_five")
  echo "round $r: crate alone full ${full} s, five ${five} s, ratio $(python3 -c "print(round($five/$full, 2))")"
done
rm -f "$WORK"/rss.*
echo "rustc peak memory: full $(peak "${SERVICE}_full") MiB, five $(peak "${SERVICE}_five") MiB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
