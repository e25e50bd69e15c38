#!/usr/bin/env bash
# Side by side with progenitor (the OpenAPI client generator): run on demand, not part of CI.
#
#   bench/progenitor.sh            # email API and a synthetic 100-operation API
#   RUNS=5 bench/progenitor.sh     # fewer timed runs of each generator
#   SKIP_COMPILE=1 bench/progenitor.sh
#   APIS=synth SYNTH_OPS=1000 bench/progenitor.sh
#   PROGENITOR_TLS_FEATURES="rustls" bench/progenitor.sh   # TLS row: progenitor without HTTP/2
#
# For each API it
#   1. exports our spec as OpenAPI 3.0 (`tidings-codegen openapi --openapi-version 3.0`; progenitor
#      reads 3.0.x only) and checks it with `openapi-spec-validator --schema 3.0`;
#   2. times whole-process generation: `tidings-codegen generate` from the YAML spec versus
#      `cargo-progenitor` from the exported OpenAPI of the same API (hyperfine when installed,
#      else a loop of `date +%s%N`);
#   3. counts generated lines per operation (all lines, and without `///`/`//!` doc comments
#      and blank lines), over the same files for both;
#   4. times a cold `cargo build` of a throwaway crate per generator with a fresh target dir
#      (dependencies included), then the generated crate alone (touch and rebuild without incremental, median of 5), and counts
#      the crates compiled, in two like-for-like variants:
#        - "no TLS, HTTP/1": ours with `tidings-runtime = { default-features = false }` against
#          progenitor's crate as it writes it (reqwest with `default-features = false`);
#        - "with TLS": ours with tidings-runtime's default features (`tls`: rustls with ring and
#          the webpki roots; `http2`) against progenitor's crate with $PROGENITOR_TLS_FEATURES
#          (default "rustls http2") added to its reqwest dependency. reqwest 0.13's `rustls`
#          feature brings rustls with the aws-lc-rs provider (a C library) and the platform
#          certificate verifier: what a progenitor user gets by asking reqwest for rustls.
#      Neither crate gets the SMTP relay: the generated module does not use it.
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
PROGENITOR_TLS_FEATURES=${PROGENITOR_TLS_FEATURES:-rustls http2}
mkdir -p "$WORK"
cd "$ROOT"

log() { printf '==> %s\n' "$*" >&2; }

# --- tools --------------------------------------------------------------------------------
log "building tidings-codegen (release)"
cargo build --quiet --release -p tidings-codegen --bin tidings-codegen
OURS=$ROOT/target/release/tidings-codegen

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

# Cold build (fresh target dir) then the crate alone (touch, rebuild), in milliseconds, and the
# number of crates the cold build compiled (its `Compiling` lines, the crate itself included).
build_times() {
  local crate=$1
  rm -rf "$crate/target"
  local start end cold warm units
  start=$(now_ns)
  (cd "$crate" && cargo build --color never >/dev/null 2>"$crate/build.log") || {
    echo "build of $crate failed; see $crate/build.log" >&2
    echo "failed failed -"
    return
  }
  end=$(now_ns)
  cold=$(((end - start) / 1000000))
  units=$(grep -c '^ *Compiling ' "$crate/build.log" || true)
  # The generated crate alone: touch and rebuild without incremental compilation (an
  # incremental rebuild of unchanged text reuses everything and measures nothing), five times;
  # the median, since one rebuild moves by a third from run to run on a shared machine.
  local alone=()
  (cd "$crate" && CARGO_INCREMENTAL=0 cargo build --quiet >/dev/null 2>>"$crate/build.log")
  for _ in 1 2 3 4 5; do
    touch "$crate/src/lib.rs"
    start=$(now_ns)
    (cd "$crate" && CARGO_INCREMENTAL=0 cargo build --quiet >/dev/null 2>>"$crate/build.log")
    end=$(now_ns)
    alone+=($(((end - start) / 1000000)))
  done
  warm=$(printf '%s\n' "${alone[@]}" | sort -n | sed -n 3p)
  echo "$cold $warm $units"
}

# Our throwaway crate: the generated module plus the runtime it calls. $3 is the tidings-runtime
# dependency's extra keys (e.g. `, default-features = false`).
make_ours_crate() {
  local crate=$1 api=$2 runtime_keys=$3
  rm -rf "$crate"
  mkdir -p "$crate/src"
  cp "$WORK/out/ours-$api/$api.rs" "$crate/src/$api.rs"
  echo "include!(\"$api.rs\");" >"$crate/src/lib.rs"
  cat >"$crate/Cargo.toml" <<EOF
[package]
name = "ours-$api"
version = "0.1.0"
edition = "2024"
publish = false

# The generated code puts the serde direction a client does not need behind this (off here).
[features]
server = []

[dependencies]
tidings-runtime = { path = "$ROOT/runtime"$runtime_keys }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
futures-core = "0.3"

[workspace]
EOF
  cp "$ROOT/Cargo.lock" "$crate/Cargo.lock"
}

# progenitor's crate as cargo-progenitor wrote it, in a workspace of its own; with $3 (features,
# space-separated) added to its reqwest dependency.
make_progenitor_crate() {
  local pcrate=$1 api=$2 reqwest_features=$3
  rm -rf "$pcrate"
  cp -r "$WORK/out/progenitor-$api" "$pcrate"
  grep -q '^\[workspace\]' "$pcrate/Cargo.toml" || printf '\n[workspace]\n' >>"$pcrate/Cargo.toml"
  [ -n "$reqwest_features" ] || return 0
  python3 - "$pcrate/Cargo.toml" $reqwest_features <<'PY'
import re, sys
path, extra = sys.argv[1], sys.argv[2:]
text = open(path).read()
line = re.search(r'^reqwest = \{.*\}$', text, re.M)
features = line and re.search(r'features = \[([^\]]*)\]', line.group(0))
if not features:
    sys.exit(f"{path}: no `reqwest = {{ ..., features = [...] }}` line to add {extra} to")
names = [n.strip().strip('"') for n in features.group(1).split(',') if n.strip()]
names += [n for n in extra if n not in names]
new = line.group(0).replace(features.group(0), 'features = [%s]' % ', '.join('"%s"' % n for n in names))
open(path, 'w').write(text.replace(line.group(0), new))
PY
}

ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print('%.2f' % (a/b) if b else '-')" "$1" "$2"; }
# ours/progenitor of two millisecond counts, with an x; `-` when either is missing or failed.
ratio_ms() { [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ ]] && echo "$(ratio "$1" "$2")x" || echo -; }
# Milliseconds as seconds with one decimal; `-` and `failed` pass through.
secs() { if [[ $1 =~ ^[0-9]+$ ]]; then python3 -c "import sys; print('%.1f' % (int(sys.argv[1])/1000))" "$1"; else echo "$1"; fi; }

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
  echo "- $PROGENITOR_VERSION; tidings-codegen $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') + working tree"
  echo "- generation: mean of $RUNS runs after warm-up ($(command -v hyperfine >/dev/null && echo hyperfine || echo 'date loop'))"
  echo
  echo "| API | ops | generation ms: ours / progenitor (speed-up) | lines/op all: ours / progenitor | lines/op without docs: ours / progenitor |"
  echo "|---|---|---|---|---|"
} >"$SUMMARY"
# Compile rows go to a second table, printed after the first.
COMPILE=$WORK/compile.md
: >"$COMPILE"

for api in ${APIS:-email synth}; do
  spec=$WORK/in/$api/$api.yaml
  openapi=$WORK/in/$api.openapi30.json
  log "$api: exporting OpenAPI 3.0"
  "$OURS" openapi "$spec" --openapi-version 3.0 --out "$openapi" >/dev/null
  python3 -m openapi_spec_validator --schema 3.0 "$openapi" >&2
  ops=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for p in d['paths'].values() for m in p if m in ('get','put','post','delete','patch','head','options')))" "$openapi")

  ours_out=$WORK/out/ours-$api
  prog_out=$WORK/out/progenitor-$api
  ours_cmd=("$OURS" generate "$WORK/in/$api" --out "$ours_out" --serde client)
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

  per_op() { python3 -c "import sys; print('%.1f' % (int(sys.argv[1])/int(sys.argv[2])))" "$1" "$ops"; }
  {
    printf '| %s | %s | %s / %s (%sx) | %s / %s | %s / %s |\n' \
      "$api" "$ops" "$ours_ms" "$prog_ms" "$(ratio "$prog_ms" "$ours_ms")" \
      "$(per_op "$ours_all")" "$(per_op "$prog_all")" "$(per_op "$ours_code")" "$(per_op "$prog_code")"
  } >>"$SUMMARY"
  log "$api: ours ${ours_ms}±${ours_sd} ms, progenitor ${prog_ms}±${prog_sd} ms; lines ours $ours_all ($ours_code code), progenitor $prog_all ($prog_code code)"

  if [ -z "${SKIP_COMPILE:-}" ]; then
    crates=$WORK/crates
    rm -rf "$crates/ours-$api" "$crates/progenitor-$api" # one crate per generator, before variants
    make_ours_crate "$crates/ours-$api-lean" "$api" ', default-features = false'
    make_progenitor_crate "$crates/progenitor-$api-lean" "$api" ""
    make_ours_crate "$crates/ours-$api-tls" "$api" ""
    make_progenitor_crate "$crates/progenitor-$api-tls" "$api" "$PROGENITOR_TLS_FEATURES"
    for variant in lean tls; do
      case $variant in
        lean)
          label="no TLS, HTTP/1"
          ours_crate=$crates/ours-$api-lean
          prog_crate=$crates/progenitor-$api-lean
          ;;
        tls)
          label="with TLS (+ HTTP/2)"
          ours_crate=$crates/ours-$api-tls
          prog_crate=$crates/progenitor-$api-tls
          ;;
      esac
      log "$api, $label: cold builds (fresh target dirs)"
      read -r ours_cold ours_warm ours_units < <(build_times "$ours_crate")
      read -r prog_cold prog_warm prog_units < <(build_times "$prog_crate")
      printf '| %s | %s | %s / %s (%s) | %s / %s (%s) | %s / %s |\n' \
        "$api" "$label" \
        "$(secs "$ours_cold")" "$(secs "$prog_cold")" "$(ratio_ms "$ours_cold" "$prog_cold")" \
        "$(secs "$ours_warm")" "$(secs "$prog_warm")" "$(ratio_ms "$ours_warm" "$prog_warm")" \
        "$ours_units" "$prog_units" >>"$COMPILE"
      log "$api, $label: ours cold $ours_cold ms, alone $ours_warm ms, $ours_units crates; progenitor cold $prog_cold ms, alone $prog_warm ms, $prog_units crates"
    done
  fi
done

{
  if [ -z "${SKIP_COMPILE:-}" ]; then
    echo
    echo "Compile time: cold \`cargo build\` (fresh target dir, dependencies included) and the generated crate alone (touch \`src/lib.rs\`, rebuild, median of 5), ours / progenitor (ours ÷ progenitor), and the crates the cold build compiled. The bench crates hold the generated module only."
    echo
    echo "- **no TLS, HTTP/1**: ours with \`tidings-runtime = { default-features = false }\`; progenitor's crate as cargo-progenitor writes it (reqwest with \`default-features = false\`: no TLS, HTTP/1 only)."
    echo "- **with TLS (+ HTTP/2)**: ours with tidings-runtime's default features (\`tls\`: rustls with ring and the webpki roots; \`http2\`); progenitor's crate with \`$PROGENITOR_TLS_FEATURES\` added to its reqwest features (reqwest 0.13's \`rustls\` is rustls with the aws-lc-rs provider and the platform certificate verifier)."
    echo
    echo "| API | variant | cold build s: ours / progenitor | crate alone s: ours / progenitor | crates compiled: ours / progenitor |"
    echo "|---|---|---|---|---|"
    cat "$COMPILE"
    echo
  else
    echo "- compile times: skipped (SKIP_COMPILE)"
  fi
  echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$SUMMARY"
cat "$SUMMARY"
