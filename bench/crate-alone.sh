#!/usr/bin/env bash
# The generated email crate alone, paired: rebuild time of the committed generated client at
# BEFORE_REF, of the working tree's, and of progenitor's crate for the same API, one after the
# other in each round, so the three see the same machine load (the machine is shared; a
# sequential median per crate, as bench/progenitor.sh takes, moves with whatever else runs).
#
#   bench/crate-alone.sh BEFORE_REF [ROUNDS]      # e.g. bench/crate-alone.sh HEAD~1 9
#
# Each crate holds the generated module only (`include!`), with the lean runtime (no TLS, no
# HTTP/2, as the "no TLS" rows of BENCHMARKS 2.3). A rebuild is `touch src/lib.rs` then
# `cargo build` with incremental compilation off (an incremental rebuild of unchanged text
# reuses everything). Prints the medians and the ratios; needs cargo-progenitor (installed into
# target/bench-progenitor/tools by bench/progenitor.sh, or on PATH).
set -euo pipefail

BEFORE=${1:?usage: bench/crate-alone.sh BEFORE_REF [ROUNDS]}
ROUNDS=${2:-9}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-crate-alone
mkdir -p "$WORK"
cd "$ROOT"

PROGENITOR=$ROOT/target/bench-progenitor/tools/bin/cargo-progenitor
[ -x "$PROGENITOR" ] || PROGENITOR=$(command -v cargo-progenitor) || {
  echo "cargo-progenitor not found: run bench/progenitor.sh once, or cargo install it" >&2
  exit 1
}

cargo build --quiet --release -p tidings-codegen --bin tidings-codegen
OURS=$ROOT/target/release/tidings-codegen

# One of our crates, named $1, holding the generated module read from standard input.
ours_crate() {
  local crate=$WORK/$1
  rm -rf "$crate" && mkdir -p "$crate/src"
  cat >"$crate/src/email.rs"
  # The committed module re-exports `tidings`' hand-written extensions (`crate::ext`): none here.
  printf 'include!("email.rs");\nmod ext {\n    pub mod email {}\n}\n' >"$crate/src/lib.rs"
  cat >"$crate/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.1.0"
edition = "2024"
publish = false

[features]
server = []

[dependencies]
tidings-runtime = { path = "$ROOT/runtime", default-features = false }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
futures-core = "0.3"

[workspace]
EOF
  cp "$ROOT/Cargo.lock" "$crate/Cargo.lock"
}

# The email module's committed copy (in generated/src/prebuilt/ before the crate-per-service split).
{ git show "$BEFORE:generated/services/email/src/prebuilt/email.rs" 2>/dev/null ||
  git show "$BEFORE:generated/src/prebuilt/email.rs"; } | ours_crate before
"$OURS" refresh --check >/dev/null 2>&1 || {
  echo "generated/services/email/src/prebuilt is stale: run cargo run -p tidings-codegen -- refresh" >&2
  exit 1
}
ours_crate after <generated/services/email/src/prebuilt/email.rs

rm -rf "$WORK/progenitor" "$WORK/email.openapi30.json"
"$OURS" openapi spec/email.yaml --openapi-version 3.0 --out "$WORK/email.openapi30.json" >/dev/null
"$PROGENITOR" progenitor -i "$WORK/email.openapi30.json" -o "$WORK/progenitor" \
  -n email-progenitor -v 0.1.0 >"$WORK/progenitor.log" 2>&1
grep -q '^\[workspace\]' "$WORK/progenitor/Cargo.toml" || printf '\n[workspace]\n' >>"$WORK/progenitor/Cargo.toml"

CRATES=(before after progenitor)
for c in "${CRATES[@]}"; do
  # Dependencies, once; warnings (progenitor's crate has many) go to the crate's build.log.
  (cd "$WORK/$c" && CARGO_INCREMENTAL=0 cargo build --quiet 2>"$WORK/$c/build.log") || {
    cat "$WORK/$c/build.log" >&2
    exit 1
  }
done

now_ns() { date +%s%N; }
declare -A TIMES
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  line="round $round:"
  for c in "${CRATES[@]}"; do
    touch "$WORK/$c/src/lib.rs"
    start=$(now_ns)
    (cd "$WORK/$c" && CARGO_INCREMENTAL=0 cargo build --quiet 2>>"$WORK/$c/build.log")
    ms=$((($(now_ns) - start) / 1000000))
    TIMES[$c]="${TIMES[$c]:-} $ms"
    line="$line $c $ms ms"
  done
  echo "$line"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
b=$(echo "${TIMES[before]}" | median)
a=$(echo "${TIMES[after]}" | median)
p=$(echo "${TIMES[progenitor]}" | median)
python3 - "$b" "$a" "$p" "$BEFORE" "$ROUNDS" <<'PY'
import sys
b, a, p = (float(x) for x in sys.argv[1:4])
print(f"medians of {sys.argv[5]} paired rounds: {sys.argv[4]} {b/1000:.2f} s, working tree {a/1000:.2f} s, progenitor {p/1000:.2f} s")
print(f"working tree / {sys.argv[4]}: {a/b:.2f}x; {sys.argv[4]} / progenitor: {b/p:.2f}x; working tree / progenitor: {a/p:.2f}x")
PY
