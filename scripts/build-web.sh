#!/usr/bin/env bash
# Builds the studio for the browser into a static folder any web server can serve:
#   bash scripts/build-web.sh [OUT_DIR]        (default target/web)
#   python3 -m http.server -d target/web 8080  then open http://localhost:8080
# Installs what it lacks: the wasm32 target (rustup), wasm-bindgen-cli at the version of the
# wasm-bindgen crate in Cargo.lock, and wasm-opt from binaryen's npm package at a pinned
# version (Debian's binaryen 108 mangles wasm-bindgen's externref table: the page fails to
# start), with Node.js and npm from apt if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/web}
started=$(date +%s)
# Each stage is named with the seconds since the start, so a slow one is seen in CI's log.
say() { echo "-- [$(( $(date +%s) - started ))s] $*"; }

# The wasm-bindgen crate's version, as locked: the CLI must be the same.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$bindgen_version" ] || { echo "build-web: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version"
  # Its own lock file first; a registry that lacks one of the locked versions gets the newest
  # compatible ones instead (the CLI's version is pinned either way).
  cargo install wasm-bindgen-cli --version "$bindgen_version" --locked ||
    cargo install wasm-bindgen-cli --version "$bindgen_version"
fi
binaryen_version=132
tools=target/web-tools
wasm_opt=$tools/node_modules/.bin/wasm-opt
if [ "$("$wasm_opt" --version 2>/dev/null | awk '{print $3}')" != "$binaryen_version" ]; then
  if ! command -v npm >/dev/null; then
    say "installing Node.js and npm"
    sudo_=(); [ "$(id -u)" = 0 ] || sudo_=(sudo)
    "${sudo_[@]}" apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  say "installing wasm-opt (binaryen $binaryen_version, npm)"
  mkdir -p "$tools"
  npm install --prefix "$tools" --silent --no-audit --no-fund "binaryen@$binaryen_version"
fi

say "building the studio for wasm32 (the web profile)"
# A cdylib for the browser only: the desktop build keeps its library an rlib.
cargo rustc --lib --profile web --locked --target wasm32-unknown-unknown --crate-type cdylib
wasm=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/terminal_studio.wasm

say "wasm-bindgen"
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen "$wasm" --out-dir "$out" --target web --no-typescript

say "wasm-opt"
# -O1: binaryen's npm build runs on one thread in Node; -Os or -Oz take 8 minutes there for
# 3 % less (the web profile's opt-level "z" already made the code small); -O1 takes one.
# The features Rust's wasm32 target uses by default, no more.
"$wasm_opt" -O1 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  "$out/terminal_studio_bg.wasm" -o "$out/terminal_studio_bg.wasm"
cp web/index.html "$out/"

raw=$(stat -c %s "$out/terminal_studio_bg.wasm")
zipped=$(gzip -9 -c "$out/terminal_studio_bg.wasm" | wc -c)
say "$out: terminal_studio_bg.wasm $((raw / 1024)) KiB raw, $((zipped / 1024)) KiB gzip"
# The budget: 8 MB raw, 3 MB gzip.
if [ "$raw" -gt 8000000 ] || [ "$zipped" -gt 3000000 ]; then
  echo "build-web: over the size budget (8 MB raw, 3 MB gzip)" >&2
  exit 1
fi
