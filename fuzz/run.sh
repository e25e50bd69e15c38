#!/usr/bin/env bash
# Runs every fuzz target in turn for SECONDS_PER_TARGET (default 180) seconds, one process each
# seeding fuzz/corpus/<target> from fuzz/seeds/<target> (and the spec files for the spec target).
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); stable Rust works with RUSTC_BOOTSTRAP=1.
# Logs go to fuzz/logs/<target>.log; crashes to fuzz/artifacts/<target>/.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${SECONDS_PER_TARGET:-180}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(spec_load_check ws_frame webhook_standard webhook_pusher error_body)
fi
mkdir -p logs
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  extra=()
  [ -d "seeds/$t" ] && extra+=("seeds/$t")
  max_len=4096
  if [ "$t" = spec_load_check ]; then
    extra+=(../spec ../codegen/tests/broken)
    max_len=65536
  fi
  # -s none: the crates forbid unsafe code, so the fuzzers look for panics, overflows
  # (-a: debug assertions) and hangs rather than memory errors.
  cargo fuzz run -s none -a "$t" "corpus/$t" "${extra[@]}" -- \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 >"logs/$t.log" 2>&1
  echo "$t: exit $?"
done
