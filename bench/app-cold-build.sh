#!/usr/bin/env bash
# Cold build of an email-only application that depends on `tidings`, before and after a change,
# alternating in one run (the machine's load moves; alternation spreads it over both):
#
#   bench/app-cold-build.sh BEFORE_REF [ROUNDS]     # e.g. bench/app-cold-build.sh b102edc 2
#
# The app lives outside the workspace: `tidings = { path, default-features = false,
# features = ["email"] }` plus tokio, one call in `main`. BEFORE_REF is checked out with
# `git worktree add` under target/app-cold-build/; "after" is this working tree. Each build
# uses a fresh target directory and `--offline` (the workspace's Cargo.lock is copied in).
# Prints seconds and the crates compiled (cargo's `Compiling` lines) per build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BEFORE_REF=${1:?usage: bench/app-cold-build.sh BEFORE_REF [ROUNDS]}
ROUNDS=${2:-2}
WORK=$ROOT/target/app-cold-build
mkdir -p "$WORK"

if [ ! -d "$WORK/before-src" ]; then
  git -C "$ROOT" worktree add --detach "$WORK/before-src" "$BEFORE_REF" >/dev/null
fi

make_app() {
  local dir=$1 tidings=$2
  mkdir -p "$dir/src"
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "email-app"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tidings = { path = "$tidings", default-features = false, features = ["email"] }
tokio = { version = "1", features = ["rt-multi-thread", "macros"] }

[workspace]
TOML
  cat >"$dir/src/main.rs" <<'RS'
#[tokio::main]
async fn main() -> Result<(), tidings::Error> {
    let client = tidings::email::EmailClient::from_env()?;
    let templates = client.list_templates(&Default::default()).await?;
    println!("{} templates", templates.data.len());
    Ok(())
}
RS
  cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
}

make_app "$WORK/before" "$WORK/before-src/generated"
make_app "$WORK/after" "$ROOT/generated"

for round in $(seq "$ROUNDS"); do
  for variant in after before; do
    rm -rf "$WORK/target"
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s%N)
    (cd "$WORK/$variant" && CARGO_TARGET_DIR="$WORK/target" cargo build --offline 2>"$WORK/$variant.log")
    end=$(date +%s%N)
    crates=$(grep -c '^ *Compiling' "$WORK/$variant.log" || true)
    printf '%s round %s: %.1f s, %s crates compiled, load %s -> %s\n' "$variant" "$round" \
      "$(echo "($end - $start) / 1000000000" | bc -l)" "$crates" "$load" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
rm -rf "$WORK/target"
