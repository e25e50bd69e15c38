#!/usr/bin/env bash
# Whole-process generation growth from 100 to 1,000 operations, measured in pairs so a shared
# machine's load hits both sides alike: each round runs `tidings-codegen generate` ten times on the
# 100-operation synthetic spec, then once on the 1,000-operation one, and the ratio of the time
# per run is printed (10.0 = linear).
#
#   bench/growth.sh            # 20 rounds
#   ROUNDS=50 bench/growth.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$ROOT/target/bench-growth
ROUNDS=${ROUNDS:-20}
cd "$ROOT"
cargo build --quiet --release -p tidings-codegen --bin tidings-codegen
BIN=$ROOT/target/release/tidings-codegen
for n in 100 1000; do
  mkdir -p "$WORK/in$n"
  "$BIN" synth "$n" >"$WORK/in$n/synth.yaml"
  "$BIN" generate "$WORK/in$n" --out "$WORK/out$n" --serde client >/dev/null # warm-up
done

small=0
large=0
for _ in $(seq "$ROUNDS"); do
  start=$(date +%s%N)
  for _ in $(seq 10); do "$BIN" generate "$WORK/in100" --out "$WORK/out100" --serde client >/dev/null; done
  mid=$(date +%s%N)
  "$BIN" generate "$WORK/in1000" --out "$WORK/out1000" --serde client >/dev/null
  end=$(date +%s%N)
  small=$((small + mid - start))
  large=$((large + end - mid))
done
python3 - "$small" "$large" "$ROUNDS" <<'PY'
import sys
small, large, rounds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
per_small = small / (rounds * 10) / 1e6
per_large = large / rounds / 1e6
print(f"whole-process generate: 100 ops {per_small:.1f} ms, 1,000 ops {per_large:.1f} ms per run "
      f"({rounds} paired rounds): {per_large / per_small:.1f}x")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
