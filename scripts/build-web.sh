#!/usr/bin/env bash
# Builds the studio for the browser into a static folder any web server can serve:
#   bash scripts/build-web.sh [OUT_DIR]        (default target/web)
#   python3 -m http.server -d target/web 8080  then open http://localhost:8080
# Installs what it lacks: the wasm32 target (rustup), wasm-bindgen-cli at the version of the
# wasm-bindgen crate in Cargo.lock, and wasm-opt (Debian's binaryen).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/web}

# The wasm-bindgen crate's version, as locked: the CLI must be the same.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$bindgen_version" ] || { echo "build-web: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "-- installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  echo "-- installing wasm-bindgen-cli $bindgen_version"
  # Its own lock file first; a registry that lacks one of the locked versions gets the newest
  # compatible ones instead (the CLI's version is pinned either way).
  cargo install wasm-bindgen-cli --version "$bindgen_version" --locked ||
    cargo install wasm-bindgen-cli --version "$bindgen_version"
fi
if ! command -v wasm-opt >/dev/null; then
  echo "-- installing wasm-opt (binaryen)"
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq binaryen >/dev/null; else sudo apt-get install -y -qq binaryen >/dev/null; fi
fi

echo "-- building the studio for wasm32 (release)"
# A cdylib for the browser only: the desktop build keeps its library an rlib.
cargo rustc --lib --release --locked --target wasm32-unknown-unknown --crate-type cdylib
wasm=target/wasm32-unknown-unknown/release/terminal_studio.wasm

echo "-- wasm-bindgen"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen "$wasm" --out-dir "$out" --target web --no-typescript

echo "-- wasm-opt"
wasm-opt -Oz --all-features "$out/terminal_studio_bg.wasm" -o "$out/terminal_studio_bg.wasm"
cp web/index.html "$out/"

raw=$(stat -c %s "$out/terminal_studio_bg.wasm")
zipped=$(gzip -9 -c "$out/terminal_studio_bg.wasm" | wc -c)
echo "-- $out: terminal_studio_bg.wasm $((raw / 1024)) KiB raw, $((zipped / 1024)) KiB gzip"
# The budget: 8 MB raw, 3 MB gzip.
if [ "$raw" -gt 8000000 ] || [ "$zipped" -gt 3000000 ]; then
  echo "build-web: over the size budget (8 MB raw, 3 MB gzip)" >&2
  exit 1
fi
