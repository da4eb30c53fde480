#!/usr/bin/env bash
# Builds every artefact of a Terminal Studio release into one folder:
#
#   bash scripts/release.sh [OUT]          (default target/dist)
#
#   terminal_studio-V-cp38-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
#                                          the Python module and the studio binary (Linux)
#   terminal_studio-V-cp38-abi3-win_amd64.whl          the same for Windows
#   terminal-studio-V-x86_64-unknown-linux-gnu.tar.gz  the studio binary alone, Linux
#   terminal-studio-V-x86_64-pc-windows-gnu.zip        terminal-studio.exe alone, Windows
#   terminal-studio-V-web.tar.gz                       the studio for the browser, a static site
#   SHA256SUMS                                         the checksums of all of the above
#
# RELEASE_PROFILE picks the Cargo profile of the binaries and the module: `dist` (the
# default: fat LTO, one codegen unit, stripped) for a tagged release, `dist-ci` (no LTO, the
# UI at opt-level 1, stripped) where CI must stay within its time. RELEASE_PLATFORMS picks a
# part ("linux windows web", the default, builds all three).
#
# The Linux binary and module are linked with zig against glibc 2.17 (manylinux2014), so the
# wheel installs on any Linux pip accepts it for; the Windows half is cross-built with
# MinGW (gcc-mingw-w64-x86-64). What it installs itself: maturin, ziglang and cargo-zigbuild
# into target/python-venv (PyPI), the Rust targets (rustup); the web half's tools, see
# scripts/build-web.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-target/dist}
profile=${RELEASE_PROFILE:-dist}
platforms=${RELEASE_PLATFORMS:-linux windows web}
started=$(date +%s)
# Each stage is named with the seconds since the start, so a slow one is seen in CI's log.
say() { echo "-- [$(( $(date +%s) - started ))s] $*"; }
max_wheel_bytes=20000000

version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)
[ -n "$version" ] || { echo "release: no version in Cargo.toml's [package]" >&2; exit 1; }
module_version=$(awk -F'"' '/^version = / { print $2; exit }' bindings/python/Cargo.toml)
[ "$module_version" = "$version" ] ||
  { echo "release: the studio is $version but the Python module (bindings/python/Cargo.toml) is $module_version" >&2; exit 1; }
say "Terminal Studio $version, profile $profile, platforms: $platforms, into $out"

venv=target/python-venv
test -x "$venv/bin/python" || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check maturin ziglang cargo-zigbuild
export PATH=$root/$venv/bin:$PATH

add_target() {
  rustup target list --installed 2>/dev/null | grep -qx "$1" || rustup target add "$1"
}

# The studio binary is placed in the Python package only for the wheel's build, and always
# taken away again, so a later `maturin develop` or a checkout never carries a stale one.
package_bin=bindings/python/python/terminal_studio/bin
trap 'rm -rf "$root/$package_bin"' EXIT
# maturin leaves git-ignored files out of a wheel, even those pyproject.toml includes.
if git check-ignore -q "$package_bin/terminal-studio" 2>/dev/null; then
  echo "release: $package_bin is git-ignored, so maturin would leave the studio binary out of the wheel" >&2
  exit 1
fi

# wheel TARGET BINARY [maturin flags…]: the wheel of TARGET with BINARY inside.
wheel() {
  local target=$1 binary=$2
  shift 2
  rm -rf "$package_bin"
  mkdir -p "$package_bin"
  cp "$binary" "$package_bin/"
  (cd bindings/python && maturin build --profile "$profile" --locked --target "$target" \
    --out "$root/$out" --quiet "$@")
  rm -rf "$package_bin"
}

# archive NAME FORMAT FILE…: FILE… in a folder NAME, packed as NAME.tar.gz or NAME.zip.
archive() {
  local name=$1 format=$2
  shift 2
  local stage=target/release-stage/$name
  rm -rf "$stage"
  mkdir -p "$stage"
  cp "$@" "$stage/"
  cp README.md "$stage/"
  case $format in
    tar.gz) tar -C target/release-stage -czf "$out/$name.tar.gz" "$name" ;;
    zip) (cd target/release-stage && rm -f "$root/$out/$name.zip" && zip -qr "$root/$out/$name.zip" "$name") ;;
  esac
}

# A manylinux2014 binary may use no glibc symbol newer than 2.17.
check_glibc() {
  local newest
  newest=$(objdump -T "$1" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
  say "$1: newest glibc symbol ${newest:-none}"
  if [ -n "$newest" ] && [ "$(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n 1)" != GLIBC_2.17 ]; then
    echo "release: $1 needs $newest, newer than manylinux2014's GLIBC_2.17" >&2
    exit 1
  fi
}

# Each part first removes its own artefacts of any version, so the folder holds one build of
# each; a part not asked for keeps what an earlier run left.
mkdir -p "$out"
rm -f "$out/SHA256SUMS"

if [[ " $platforms " == *" linux "* ]]; then
  target=x86_64-unknown-linux-gnu
  rm -f "$out"/terminal_studio-*-manylinux*.whl "$out"/terminal-studio-*-$target.tar.gz
  say "Linux: the studio (zig, glibc 2.17)"
  cargo zigbuild --profile "$profile" --locked --bin terminal-studio --target "$target.2.17"
  binary=target/$target/$profile/terminal-studio
  check_glibc "$binary"
  say "Linux: the wheel (manylinux2014)"
  wheel "$target" "$binary" --zig --compatibility manylinux2014
  archive "terminal-studio-$version-$target" tar.gz "$binary"
fi

if [[ " $platforms " == *" windows "* ]]; then
  target=x86_64-pc-windows-gnu
  add_target "$target"
  rm -f "$out"/terminal_studio-*-win_amd64.whl "$out"/terminal-studio-*-$target.zip
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
  say "Windows: the studio (MinGW)"
  cargo build --profile "$profile" --locked --bin terminal-studio --target "$target"
  binary=target/$target/$profile/terminal-studio.exe
  say "Windows: the wheel"
  wheel "$target" "$binary"
  archive "terminal-studio-$version-$target" zip "$binary"
fi

if [[ " $platforms " == *" web "* ]]; then
  say "web: the studio for the browser"
  rm -f "$out"/terminal-studio-*-web.tar.gz
  bash scripts/build-web.sh target/web
  name=terminal-studio-$version-web
  rm -rf "target/release-stage/$name"
  mkdir -p target/release-stage
  cp -r target/web "target/release-stage/$name"
  tar -C target/release-stage -czf "$out/$name.tar.gz" "$name"
fi

say "checks: sizes and checksums"
shopt -s nullglob
artefacts=("$out"/terminal_studio-*.whl "$out"/terminal-studio-*)
[ "${#artefacts[@]}" -gt 0 ] || { echo "release: nothing was built into $out" >&2; exit 1; }
for wheel_file in "$out"/terminal_studio-*.whl; do
  size=$(stat -c %s "$wheel_file")
  if [ "$size" -gt "$max_wheel_bytes" ]; then
    echo "release: $wheel_file is $size bytes, over the $max_wheel_bytes of a wheel" >&2
    exit 1
  fi
  unzip -l "$wheel_file" | grep -qE 'terminal_studio/bin/terminal-studio(\.exe)?$' ||
    { echo "release: $wheel_file carries no studio binary" >&2; exit 1; }
done
(cd "$out" && sha256sum -- "${artefacts[@]##*/}" > SHA256SUMS && sha256sum --quiet -c SHA256SUMS)
(cd "$out" && for f in "${artefacts[@]##*/}"; do printf '%10s KiB  %s\n' "$(( $(stat -c %s "$f") / 1024 ))" "$f"; done)
echo "-- release $version built in $(( $(date +%s) - started )) s into $out"
