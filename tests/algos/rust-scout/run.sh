#!/usr/bin/env bash
# Builds the algo on first use or when a source is newer than the binary (build output
# goes to stderr), then runs it. Bash builtins only on the usual path: an arena starts this
# script twice per match, and forking `find`/`dirname`/`head` cost more CPU than the game.
DIR="${BASH_SOURCE[0]%/*}"
[ "$DIR" = "${BASH_SOURCE[0]}" ] && DIR=.
DIR="$(cd "$DIR" && pwd)"
BIN="$DIR/target/release/rust-scout"
stale() {
    [ -x "$BIN" ] || return 0
    local f
    for f in "$DIR/Cargo.toml" "$DIR"/src/*.rs; do
        [ "$f" -nt "$BIN" ] && return 0
    done
    return 1
}
if stale; then
    cargo build --release --quiet --manifest-path "$DIR/Cargo.toml" --target-dir "$DIR/target" 1>&2 || exit 1
fi
exec "$BIN"
