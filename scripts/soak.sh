#!/usr/bin/env bash
# The soak test: an arena of N games (a test algo against ghosts, two jobs) run by the studio
# binary, whose memory (RSS) and open file descriptors are sampled while it plays. Checks that
# from game FIRST to game N they grow less than GROWTH % (default 10), and that when it is
# over no process it started, no temp folder and no pipe is left behind.
#
#   bash scripts/soak.sh [N]        (default 1000; CI runs 100)
#
# FIRST is game 100, or N/5 when N < 500 (so a 100-game run compares game 20 with game 100).
# The figures at a game are those sampled (20 a second) over a window of WINDOW games ending at
# it (default FIRST/2, at most 50): memory is the median of the window's RSS samples, what the
# studio holds while it plays; one large replay in flight at the sampling instant is a peak,
# not growth (the peaks are printed too). Open files and pipes: the count at an instant swings
# with the matches in flight (a match starting while another ends holds both one's pipes), so
# they grow when even the window at game N's lowest count is above the highest of the window
# at game FIRST: a leak larger than that swing (≈ 20 descriptors with two jobs). With the
# default ghosts (300 replays, cycled) the windows at games 100 and 1000 play the same replays.
# Environment: STUDIO (the binary; default target/release/terminal-studio, else
# target/debug), ALGO (default tests/algos/py-idle), GHOSTS (a folder of replays, cycled to N
# ghosts; default ../shared/replays/live-2022), JOBS (default 2), GROWTH (the memory growth
# allowed, in %; default 10), KEEP=1 keeps the work folder, TRACE=1 prints the figures every
# 100 games.
# Exit 0 when every check holds, 1 otherwise (each failed check named on stderr).
set -euo pipefail
trap 'echo "soak: stopped by a failed command at line $LINENO" >&2' ERR
cd "$(dirname "$0")/.."
n=${1:-1000}
jobs=${JOBS:-2}
algo=$(realpath "${ALGO:-tests/algos/py-idle}")
ghost_source=$(realpath "${GHOSTS:-../shared/replays/live-2022}")
if [ -n "${STUDIO:-}" ]; then
  studio=$(realpath "$STUDIO")
elif [ -x "${CARGO_TARGET_DIR:-target}/release/terminal-studio" ]; then
  studio=$(realpath "${CARGO_TARGET_DIR:-target}/release/terminal-studio")
else
  studio=$(realpath "${CARGO_TARGET_DIR:-target}/debug/terminal-studio")
fi
[ -x "$studio" ] || { echo "soak: no studio binary at $studio (cargo build first, or set STUDIO)" >&2; exit 1; }
[ -d "$ghost_source" ] || { echo "soak: no replays at $ghost_source (set GHOSTS)" >&2; exit 1; }
first=100
if [ "$n" -lt 500 ]; then first=$((n / 5)); fi
growth=${GROWTH:-10}
window=${WINDOW:-$((first / 2 < 50 ? first / 2 : 50))}
[ "$window" -ge 5 ] && [ "$first" -ge "$window" ] || { echo "soak: N=$n is too small (at least 50 games, WINDOW at most N/5)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")
cleanup() { if [ "${KEEP:-0}" != 1 ]; then rm -rf "$work"; else echo "soak: kept $work" >&2; fi; }
trap cleanup EXIT
mkdir -p "$work/ghosts" "$work/tmp"

# N ghosts: the source replays cycled (hard links where possible), numbered so each is its own game.
mapfile -t sources < <(find "$ghost_source" -type f \( -name '*.replay' -o -name '*.replay.gz' \) | sort)
[ "${#sources[@]}" -gt 0 ] || { echo "soak: no replay under $ghost_source" >&2; exit 1; }
# Cycled every N − FIRST games when there are that many, so the window at game N plays the
# replays the window at game FIRST played (memory swings with the replays in flight).
period=${#sources[@]}
[ $((n - first)) -le "$period" ] && period=$((n - first))
for ((k = 0; k < n; k++)); do
  src=${sources[$((k % period))]}
  name=$(printf 'g%05d-%s' "$k" "$(basename "$src")")
  ln "$src" "$work/ghosts/$name" 2>/dev/null || cp "$src" "$work/ghosts/$name"
done

# The arena in a session of its own, its temp folders in one folder of ours.
start=$(date +%s)
TMPDIR="$work/tmp" setsid "$studio" arena "$algo" --vs-ghosts "$work/ghosts" --jobs "$jobs" \
  --out "$work/out" >"$work/arena.log" 2>&1 &
pid=$!

games() { if [ -f "$work/out/results.jsonl" ]; then wc -l <"$work/out/results.jsonl"; else echo 0; fi; }
rss_kb() { awk '/^VmRSS:/ { print $2 } END { print 0 }' "/proc/$pid/status" 2>/dev/null | head -n 1 || true; }
# The process may end between two reads: a failed read is no sample, never the script's end.
fds() { find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l || true; }
pipes() { find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 -lname 'pipe:*' 2>/dev/null | wc -l || true; }

# Over the window ending at game FIRST, and at game N (or the last game seen while it ran):
# every RSS sample; the highest descriptor counts at FIRST and the lowest at N.
declare -A at_first=([rss]=0 [fds]=0 [pipes]=0) at_last=([rss]=0 [fds]=-1 [pipes]=-1)
rss_first=() rss_last=()
last_game=0
traced=0
while kill -0 "$pid" 2>/dev/null; do
  g=$(games)
  r=$(rss_kb) f=$(fds) p=$(pipes)
  r=${r:-0} f=${f:-0} p=${p:-0}
  if [ "$g" -gt $((first - window)) ] && [ "$g" -le "$first" ]; then
    [ "$r" -gt 0 ] && rss_first+=("$r")
    [ "$f" -gt "${at_first[fds]}" ] && at_first[fds]=$f
    [ "$p" -gt "${at_first[pipes]}" ] && at_first[pipes]=$p
  fi
  if [ "$g" -gt $((n - window)) ] && [ "$r" -gt 0 ]; then
    rss_last+=("$r")
    { [ "${at_last[fds]}" -lt 0 ] || [ "$f" -lt "${at_last[fds]}" ]; } && at_last[fds]=$f
    { [ "${at_last[pipes]}" -lt 0 ] || [ "$p" -lt "${at_last[pipes]}" ]; } && at_last[pipes]=$p
    last_game=$g
  fi
  if [ -n "${TRACE:-}" ] && [ "$g" -ge $((traced + 100)) ]; then
    traced=$g
    heap=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    echo "soak: game $g: RSS $r kB (${heap:-?} kB of it anonymous), $f fds ($p pipes)" >&2
  fi
  sleep 0.05
done
status=0
wait "$pid" || status=$?
seconds=$(($(date +%s) - start))
played=$(games)

# The median and the largest of a window's RSS samples (0 0 without samples).
median_and_peak() {
  if [ "$#" -eq 0 ]; then echo "0 0"; return; fi
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }'
}
read -r at_first[rss] peak_first < <(median_and_peak "${rss_first[@]}")
read -r at_last[rss] peak_last < <(median_and_peak "${rss_last[@]}")

failed=0
fail() { echo "soak: FAILED: $*" >&2; failed=1; }
[ "$status" -eq 0 ] || fail "the arena exited with status $status (log: $(tail -n 3 "$work/arena.log"))"
[ "$played" -eq "$n" ] || fail "$played of $n games recorded"
[ "${at_first[rss]}" -gt 0 ] || fail "no sample at game $first"
[ "${at_last[rss]}" -gt 0 ] || fail "no sample near game $n"
grows() { # name first last: more than GROWTH %
  local name=$1 a=$2 b=$3
  if [ $((b * 100)) -gt $((a * (100 + growth))) ]; then fail "$name grew from $a at game $first to $b at game $n (more than $growth %)"; fi
}
grows "RSS (kB)" "${at_first[rss]}" "${at_last[rss]}"
above() { # name highest-at-first lowest-at-last
  if [ "$3" -gt "$2" ]; then fail "$1 grew: at most $2 around game $first, at least $3 around game $n"; fi
}
above "open fds" "${at_first[fds]}" "${at_last[fds]}"
above "pipes" "${at_first[pipes]}" "${at_last[pipes]}"

# Left behind: a process of its session or running the algo, a temp folder, a pipe.
left=$(ps -eo pid=,sid=,args= | awk -v s="$pid" -v a="$algo" -v w="$work" \
  '$2 == s || index($0, a) || index($0, w) { print }' | grep -v -e awk -e 'ps -eo' || true)
[ -z "$left" ] || fail "processes left: $left"
temps=$(find "$work/tmp" -mindepth 1 -maxdepth 1 | wc -l)
[ "$temps" -eq 0 ] || fail "$temps temp entries left in TMPDIR: $(ls "$work/tmp" | head -5 | tr '\n' ' ')"
held=0
for fd in /proc/[0-9]*/fd/*; do
  case $(readlink "$fd" 2>/dev/null) in "$work"*) held=$((held + 1)) ;; esac
done
[ "$held" -eq 0 ] || fail "$held descriptors of other processes still open on the work folder"

printf 'soak: %d games (%s against %d ghosts, %d jobs) in %d s\n' "$played" "$(basename "$algo")" "$n" "$jobs" "$seconds"
printf 'soak: at game %d: RSS %d kB (peak %d), at most %d fds (%d pipes); at game %d: RSS %d kB (peak %d), at least %d fds (%d pipes)\n' \
  "$first" "${at_first[rss]}" "$peak_first" "${at_first[fds]}" "${at_first[pipes]}" \
  "$last_game" "${at_last[rss]}" "$peak_last" "${at_last[fds]}" "${at_last[pipes]}"
echo "soak: RSS is each window's median over ${#rss_first[@]} and ${#rss_last[@]} samples ($window games)"
if [ "$failed" -eq 0 ]; then echo "soak: ok (growth under $growth %, nothing left behind)"; fi
exit "$failed"
