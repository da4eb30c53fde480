#!/usr/bin/env bash
# Builds the algo on first use (build output goes to stderr), then runs it.
DIR="$(cd "$(dirname "$0")" && pwd)"
BIN="$DIR/target/release/rust-scout"
if [ ! -x "$BIN" ] || [ -n "$(find "$DIR/src" "$DIR/Cargo.toml" -newer "$BIN" 2>/dev/null | head -n 1)" ]; then
    cargo build --release --quiet --manifest-path "$DIR/Cargo.toml" --target-dir "$DIR/target" 1>&2 || exit 1
fi
exec "$BIN"
