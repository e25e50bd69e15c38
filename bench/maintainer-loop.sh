#!/usr/bin/env bash
# The maintainer's loop (issue 32, item 4): a one-field edit of a spec, then the client
# crate's build with its `codegen` feature (what `cargo build` does in this workspace), warm
# and incremental, ROUNDS times (each edit reverted by the next round's build, which is timed
# too). Then where the time goes: the build script's generation alone (the CLI on the same
# specs), rustc on each crate rebuilt (a wrapper timing each rustc run: the service's crate,
# `tidings-messaging`, and the `tidings` that re-exports it), and the service crate's passes
# (`-Z time-passes`, through RUSTC_BOOTSTRAP on the stable compiler, on a non-incremental run).
#
#   bench/maintainer-loop.sh [ROUNDS]
set -euo pipefail
ROUNDS=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-maintainer-loop
mkdir -p "$WORK"
cd "$ROOT"
SPEC=spec/messaging.yaml
cp "$SPEC" "$WORK/messaging.yaml.orig"
trap 'cp "$WORK/messaging.yaml.orig" "$ROOT/$SPEC"' EXIT

build() { cargo build --quiet -p tidings --features codegen 2>/dev/null; }
ms() { python3 -c "import sys; print(round((int(sys.argv[2]) - int(sys.argv[1])) / 1e6))" "$@"; }
cargo build --quiet -p tidings-codegen --bin tidings-codegen
build

# A field doc the generated code carries: the first `doc:` of a field in the types section.
edit() { # round
  python3 - "$SPEC" "$1" <<'PY'
import re, sys
path, n = sys.argv[1], sys.argv[2]
text = open(path).read()
i = text.index("\ntypes:\n")
head, tail = text[:i], text[i:]
tail = re.sub(r"(\n      \w+: \{[^\n]*doc: \")", lambda m: m.group(1) + f"(edit {n}) ", tail, count=1)
open(path, "w").write(head + tail)
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
edits=(); reverts=()
for r in $(seq "$ROUNDS"); do
  edit "$r"
  git diff --quiet -- "$SPEC" && { echo "the edit changed nothing"; exit 1; }
  t0=$(date +%s%N); build; t1=$(date +%s%N)
  cp "$WORK/messaging.yaml.orig" "$SPEC"
  t2=$(date +%s%N); build; t3=$(date +%s%N)
  edits+=("$(ms "$t0" "$t1")"); reverts+=("$(ms "$t2" "$t3")")
  echo "round $r: edit -> build $(ms "$t0" "$t1") ms, revert -> build $(ms "$t2" "$t3") ms"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median: edit -> build $(median "${edits[@]}") ms, revert -> build $(median "${reverts[@]}") ms"

# Where the time goes.
t0=$(date +%s%N)
target/debug/tidings-codegen generate spec --out "$WORK/gen" >/dev/null
t1=$(date +%s%N)
echo "generation alone (debug CLI, every spec): $(ms "$t0" "$t1") ms"
cat >"$WORK/rustc-timer" <<'SH'
#!/usr/bin/env bash
# Records the wall time of each rustc run, by crate name.
t0=$(date +%s%N); "$@"; status=$?; t1=$(date +%s%N)
for a in "$@"; do [ "$prev" = "--crate-name" ] && name=$a; prev=$a; done
echo "$name $(( (t1 - t0) / 1000000 ))" >>"$(dirname "$0")/rustc-times"
exit $status
SH
chmod +x "$WORK/rustc-timer"
rm -f "$WORK/rustc-times"
edit timed
t0=$(date +%s%N)
RUSTC_WRAPPER="$WORK/rustc-timer" cargo build --quiet -p tidings --features codegen 2>/dev/null
t1=$(date +%s%N)
cp "$WORK/messaging.yaml.orig" "$SPEC"
echo "edit -> build with a rustc timer: $(ms "$t0" "$t1") ms in all; rustc runs: $(tr '\n' ' ' <"$WORK/rustc-times")"
edit passes
# The crate the edit recompiles: the messaging service's own (one crate per service).
RUSTC_BOOTSTRAP=1 CARGO_INCREMENTAL=0 cargo rustc --quiet -p tidings-messaging --features codegen --lib -- -Z time-passes 2>"$WORK/time-passes.txt" || true
cp "$WORK/messaging.yaml.orig" "$SPEC"
echo "rustc passes over 0.1 s (non-incremental, $WORK/time-passes.txt):"
grep -E "time: +[0-9.]+;" "$WORK/time-passes.txt" | awk '{t=$2; gsub(";","",t); if (t+0 >= 0.1) print "  " $0}' | head -25
build
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
