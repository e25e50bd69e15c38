#!/usr/bin/env bash
# Side by side with progenitor (the OpenAPI client generator): run on demand, not part of CI.
#
#   bench/progenitor.sh            # email API and a synthetic 100-operation API
#   RUNS=5 bench/progenitor.sh     # fewer timed runs of each generator
#   SKIP_COMPILE=1 bench/progenitor.sh
#   APIS=synth SYNTH_OPS=1000 bench/progenitor.sh
#
# For each API it
#   1. exports our spec as OpenAPI 3.0 (`comms-codegen openapi --openapi-version 3.0`; progenitor
#      reads 3.0.x only) and checks it with `openapi-spec-validator --schema 3.0`;
#   2. times whole-process generation: `comms-codegen generate` from the YAML spec versus
#      `cargo-progenitor` from the exported OpenAPI of the same API (hyperfine when installed,
#      else a loop of `date +%s%N`);
#   3. counts generated lines per operation (all lines, and without `///`/`//!` doc comments
#      and blank lines), over the same files for both;
#   4. times a cold `cargo build` of a throwaway crate per generator with a fresh target dir
#      (dependencies included), then the generated crate alone (touch and rebuild).
#
# Everything goes under target/bench-progenitor/; cargo-progenitor is installed into
# target/bench-progenitor/tools when missing. Prints a Markdown summary at the end and writes it
# to target/bench-progenitor/summary.md.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-progenitor
TOOLS=$WORK/tools
RUNS=${RUNS:-10}
SYNTH_OPS=${SYNTH_OPS:-100}
mkdir -p "$WORK"
cd "$ROOT"

log() { printf '==> %s\n' "$*" >&2; }

# --- tools --------------------------------------------------------------------------------
log "building comms-codegen (release)"
cargo build --quiet --release -p comms-codegen --bin comms-codegen
OURS=$ROOT/target/release/comms-codegen

PROGENITOR=$TOOLS/bin/cargo-progenitor
if [ ! -x "$PROGENITOR" ]; then
  log "installing cargo-progenitor into $TOOLS"
  cargo install --quiet --locked cargo-progenitor --root "$TOOLS"
fi
PROGENITOR_VERSION=$(grep -o 'cargo-progenitor [0-9.]*' "$TOOLS/.crates.toml" 2>/dev/null || echo "cargo-progenitor (version unknown)")

if ! python3 -c "import openapi_spec_validator" >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check "openapi-spec-validator>=0.7,<1"
fi

now_ns() { date +%s%N; }

# Mean wall time in milliseconds of a command, over $RUNS runs after one warm-up.
time_ms() {
  local name=$1
  shift
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --shell=none --warmup 2 --runs "$RUNS" --export-json "$WORK/hyperfine-$name.json" \
      "$*" >/dev/null 2>&1
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('%.1f %.1f' % (r['mean']*1e3, r['stddev']*1e3))" \
      "$WORK/hyperfine-$name.json"
  else
    "$@" >/dev/null 2>&1
    local start end
    start=$(now_ns)
    for _ in $(seq "$RUNS"); do "$@" >/dev/null 2>&1; done
    end=$(now_ns)
    echo "$(((end - start) / RUNS / 1000000)) -"
  fi
}

# Lines of the .rs files under a directory: all, and without doc comments and blank lines.
count_lines() {
  local dir=$1
  local all code
  all=$(find "$dir" -name '*.rs' -exec cat {} + | wc -l)
  code=$(find "$dir" -name '*.rs' -exec cat {} + | grep -vE '^\s*(///|//!|$)' | wc -l)
  echo "$all $code"
}

# Cold build (fresh target dir) then the crate alone (touch, rebuild), in seconds.
build_times() {
  local crate=$1
  rm -rf "$crate/target"
  local start end cold warm
  start=$(now_ns)
  (cd "$crate" && cargo build --quiet >/dev/null 2>"$crate/build.log") || {
    echo "build of $crate failed; see $crate/build.log" >&2
    echo "failed failed"
    return
  }
  end=$(now_ns)
  cold=$(((end - start) / 1000000))
  touch "$crate/src/lib.rs"
  start=$(now_ns)
  (cd "$crate" && cargo build --quiet >/dev/null 2>>"$crate/build.log")
  end=$(now_ns)
  warm=$(((end - start) / 1000000))
  echo "$cold $warm"
}

ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print('%.2f' % (a/b) if b else '-')" "$1" "$2"; }

# --- inputs -------------------------------------------------------------------------------
rm -rf "$WORK/in" "$WORK/out"
mkdir -p "$WORK/in/email" "$WORK/in/synth" "$WORK/out"
cp spec/email.yaml "$WORK/in/email/email.yaml"
"$OURS" synth "$SYNTH_OPS" >"$WORK/in/synth/synth.yaml"

SUMMARY=$WORK/summary.md
{
  echo "### progenitor side by side ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "- machine: $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- $PROGENITOR_VERSION; comms-codegen $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') + working tree"
  echo "- generation: mean of $RUNS runs after warm-up ($(command -v hyperfine >/dev/null && echo hyperfine || echo 'date loop'))"
  echo
  echo "| API | ops | generation ms: ours / progenitor (speed-up) | lines/op all: ours / progenitor | lines/op without docs: ours / progenitor | cold build s: ours / progenitor | crate alone s: ours / progenitor |"
  echo "|---|---|---|---|---|---|---|"
} >"$SUMMARY"

for api in ${APIS:-email synth}; do
  spec=$WORK/in/$api/$api.yaml
  openapi=$WORK/in/$api.openapi30.json
  log "$api: exporting OpenAPI 3.0"
  "$OURS" openapi "$spec" --openapi-version 3.0 --out "$openapi" >/dev/null
  python3 -m openapi_spec_validator --schema 3.0 "$openapi" >&2
  ops=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for p in d['paths'].values() for m in p if m in ('get','put','post','delete','patch','head','options')))" "$openapi")

  ours_out=$WORK/out/ours-$api
  prog_out=$WORK/out/progenitor-$api
  ours_cmd=("$OURS" generate "$WORK/in/$api" --out "$ours_out")
  prog_cmd=("$PROGENITOR" progenitor -i "$openapi" -o "$prog_out" -n "$api-progenitor" -v 0.1.0)
  log "$api: generating once with each"
  "${ours_cmd[@]}" >/dev/null
  if ! "${prog_cmd[@]}" >"$WORK/progenitor-$api.log" 2>&1; then
    echo "progenitor failed on $openapi; see $WORK/progenitor-$api.log" >&2
    cat "$WORK/progenitor-$api.log" >&2
    exit 1
  fi

  log "$api: timing generation ($RUNS runs each)"
  read -r ours_ms ours_sd < <(time_ms "ours-$api" "${ours_cmd[@]}")
  read -r prog_ms prog_sd < <(time_ms "progenitor-$api" "${prog_cmd[@]}")

  read -r ours_all ours_code < <(count_lines "$ours_out")
  read -r prog_all prog_code < <(count_lines "$prog_out/src")

  ours_build="- -"
  prog_build="- -"
  if [ -z "${SKIP_COMPILE:-}" ]; then
    # Our throwaway crate: the generated module plus the runtime it calls.
    crate=$WORK/crates/ours-$api
    rm -rf "$crate"
    mkdir -p "$crate/src"
    cp "$ours_out/$api.rs" "$crate/src/$api.rs"
    echo "include!(\"$api.rs\");" >"$crate/src/lib.rs"
    cat >"$crate/Cargo.toml" <<EOF
[package]
name = "ours-$api"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
comms-runtime = { path = "$ROOT/runtime"$([ "$api" = email ] && echo ', features = ["smtp"]') }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
futures-core = "0.3"

[workspace]
EOF
    cp "$ROOT/Cargo.lock" "$crate/Cargo.lock"
    # progenitor's crate as cargo-progenitor wrote it, in a workspace of its own.
    pcrate=$WORK/crates/progenitor-$api
    rm -rf "$pcrate"
    cp -r "$prog_out" "$pcrate"
    grep -q '^\[workspace\]' "$pcrate/Cargo.toml" || printf '\n[workspace]\n' >>"$pcrate/Cargo.toml"
    log "$api: cold builds (fresh target dirs)"
    ours_build=$(build_times "$crate")
    prog_build=$(build_times "$pcrate")
  fi
  read -r ours_cold ours_warm <<<"$ours_build"
  read -r prog_cold prog_warm <<<"$prog_build"

  per_op() { python3 -c "import sys; print('%.1f' % (int(sys.argv[1])/int(sys.argv[2])))" "$1" "$ops"; }
  secs() { [ "$1" = "-" ] || [ "$1" = failed ] && echo "$1" || python3 -c "import sys; print('%.1f' % (int(sys.argv[1])/1000))" "$1"; }
  {
    printf '| %s | %s | %s / %s (%sx) | %s / %s | %s / %s | %s / %s (%s) | %s / %s (%s) |\n' \
      "$api" "$ops" "$ours_ms" "$prog_ms" "$(ratio "$prog_ms" "$ours_ms")" \
      "$(per_op "$ours_all")" "$(per_op "$prog_all")" "$(per_op "$ours_code")" "$(per_op "$prog_code")" \
      "$(secs "$ours_cold")" "$(secs "$prog_cold")" \
      "$( [[ $ours_cold =~ ^[0-9]+$ && $prog_cold =~ ^[0-9]+$ ]] && ratio "$ours_cold" "$prog_cold" || echo -)" \
      "$(secs "$ours_warm")" "$(secs "$prog_warm")" \
      "$( [[ $ours_warm =~ ^[0-9]+$ && $prog_warm =~ ^[0-9]+$ ]] && ratio "$ours_warm" "$prog_warm" || echo -)"
  } >>"$SUMMARY"
  log "$api: ours ${ours_ms}±${ours_sd} ms, progenitor ${prog_ms}±${prog_sd} ms; lines ours $ours_all ($ours_code code), progenitor $prog_all ($prog_code code); builds ours $ours_build, progenitor $prog_build (ms)"
done

echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$SUMMARY"
cat "$SUMMARY"
