"""The web studio in a real browser: headless Chromium driven over WebDriver (selenium).

    python3 tests/web/browser_test.py WEB_DIR SHARED_DIR STUDIO_BINARY [SHOTS_DIR]

WEB_DIR is what `scripts/build-web.sh` wrote; SHARED_DIR holds `replays/`; STUDIO_BINARY is the
desktop `terminal-studio` (the Layout lab's totals in the browser must equal its `stress`).
Serves WEB_DIR with the replays and a layout beside it, then, as a player would:
  1. opens `?replay=` the largest replay: the first frame is drawn (timed), the board shows;
  2. drops a real replay on the page: it opens; the arrow key steps its frames (timed);
  3. plays against the dropped replay (the Playback menu's command): the match waits at the
     person's turn; two walls clicked on the board are in the plan; each End turn plays a
     turn against the ghost (timed) and the walls stand on the next turn's board; the match
     stopped, its replay (taken from the page) re-verifies exactly with the desktop studio;
  4. opens `?layout=` a layout, drops a set of replays, runs the Layout lab's stress test
     (the Edit menu's command): the totals are the CLI's for the same layout and replays;
  5. the browser console has no error; screenshots at 1000x700 and 1600x1000.
Prints the figures as JSON on the last line. Exits non-zero, naming what failed.
"""

import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

LAYOUT = "funnel-2022.json"
LAB_REPLAYS = 8


def fail(message):
    print(f"browser test FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def serve(folder):
    """A static server on a free port; returns its base URL."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def browser(width, height):
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu-sandbox", "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", f"--window-size={width},{height}"]:
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    # The page itself at exactly this size (the window's frame would take some of it).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


def status(driver):
    text = driver.execute_script("return window.terminalStudio ? window.terminalStudio.studioStatus() : null;")
    return json.loads(text) if text else None


def wait_for(driver, what, test, timeout=60.0):
    """Polls the studio's status until `test(status)` holds; returns it and the seconds taken."""
    started = time.monotonic()
    last = None
    while time.monotonic() - started < timeout:
        last = status(driver)
        if last is not None and test(last):
            return last, time.monotonic() - started
        time.sleep(0.02)
    fail(f"{what}: not within {timeout:.0f} s; the studio's status: {json.dumps(last)[:1500]}")


def assert_console_clean(driver):
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    if errors:
        fail(f"the console has errors: {errors}")


def board_drawn(png_path):
    """The middle of the screenshot holds the board: many pixels unlike the background."""
    from PIL import Image

    image = Image.open(png_path).convert("RGB")
    w, h = image.size
    middle = image.crop((w // 4, h // 4, 3 * w // 4, 3 * h // 4))
    pixels = list(middle.get_flattened_data() if hasattr(middle, "get_flattened_data") else middle.getdata())
    background = statistics.mode(pixels)
    differing = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, background)) > 40)
    return differing / len(pixels), len(set(pixels))


def drop_files(driver, urls):
    """Drops the files at `urls` (same origin) on the canvas, as a person dragging them does."""
    driver.execute_async_script(
        """
        const [urls, done] = arguments;
        const transfer = new DataTransfer();
        for (const url of urls) {
          const bytes = await (await fetch(url)).arrayBuffer();
          transfer.items.add(new File([bytes], url.split('/').pop()));
        }
        const canvas = document.getElementById('studio');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          canvas.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }
        done();
        """,
        urls,
    )


def open_page(driver, url):
    started = time.monotonic()
    driver.get(url)
    wait_for(driver, f"the page {url} starts", lambda s: True, timeout=30)
    return started


PLAY_TURNS = 4


def settled_board(driver):
    """Where the board is drawn, once it has stayed in place for half a second (a panel
    appearing moves it; two reads a tenth of a second apart once agreed on a place the
    board left a frame later, and the click landed a tile off)."""
    last, same = None, 0
    for _ in range(150):
        board = status(driver)["play"]["board"]
        same = same + 1 if board is not None and board == last else 0
        if same >= 5:
            return board
        last = board
        time.sleep(0.1)
    fail(f"the board does not stay in place: {last}")


def click_tile(driver, board, tile):
    """Clicks a tile of the Play view's board as the page last drew it (`play.board` of the
    studio's status)."""
    if board is None:
        fail("the studio's status places no board")
    x, y = tile
    scale, side = board["pixels_per_point"], board["tile"]
    px = (board["origin"][0] + (x + 0.5) * side) * scale
    py = (board["origin"][1] + (27 - y + 0.5) * side) * scale
    canvas = driver.find_element(By.ID, "studio")
    size = canvas.size
    # Offsets are from the canvas's centre (W3C actions).
    ActionChains(driver).move_to_element_with_offset(canvas, px - size["width"] / 2, py - size["height"] / 2) \
        .click().perform()


def play_against_ghost(driver, shots, figures):
    """The replay shown, played against its player 2: the match waits for the person at each
    turn; End turn plays the turn (the ghost's recorded moves with it) and the next one comes."""
    t0 = time.monotonic()
    if not driver.execute_script("return window.terminalStudio.studioRun('Play against this replay');"):
        fail("no command 'Play against this replay' in the command table")
    planning = lambda turn: lambda s: s["play"]["running"] and (s["play"]["planning"] or {}).get("turn") == turn
    state, _ = wait_for(driver, "the match against the ghost waits for turn 0", planning(0), 30)
    figures["play_first_turn_s"] = round(time.monotonic() - t0, 2)
    if state["view"] != "Play" or state["play"]["planning"]["seat"] != 1:
        fail(f"not planning seat 1 in the Play view: {json.dumps(state)[:800]}")
    # Two walls of yours, placed by clicking their tiles (the Wall tool is chosen at the start).
    walls = [(13, 11), (14, 11)]
    for placed, tile in enumerate(walls, start=1):
        click_tile(driver, settled_board(driver), tile)
        wait_for(driver, f"the wall at {tile} in the plan",
                 lambda s, n=placed: len((s["play"]["plan"] or {}).get("builds") or []) == n, 10)
    planned, _ = wait_for(driver, "the two walls in the plan",
                          lambda s: len((s["play"]["plan"] or {}).get("builds") or []) == len(walls), 10)
    plan = planned["play"]["plan"]
    if sorted(map(tuple, plan["builds"])) != sorted(walls) or plan["rejected"] != 0 or plan["sp_spent"] <= 0:
        fail(f"the plan is not the two walls clicked at {walls}: {json.dumps(planned['play'])}")
    before = planned["play"]["p1_structures_shown"]
    driver.save_screenshot(str(shots / "web-play-1000x700.png"))
    turn_times = []
    for turn in range(1, PLAY_TURNS):
        t0 = time.monotonic()
        if not driver.execute_script("return window.terminalStudio.studioRun('End turn');"):
            fail("no command 'End turn' in the command table")
        state, _ = wait_for(driver, f"turn {turn} of the match against the ghost", planning(turn), 60)
        turn_times.append(time.monotonic() - t0)
        if turn == 1 and state["play"]["p1_structures_shown"] < before + len(walls):
            fail(f"the walls planned on turn 0 are not on turn 1's board: {json.dumps(state['play'])}")
    # From End turn to the next turn's plan: the turn played and its action phase shown.
    figures["play_turn_median_s"] = round(statistics.median(turn_times), 2)
    if not driver.execute_script("return window.terminalStudio.studioRun('Stop match');"):
        fail("no command 'Stop match' in the command table")
    ended, _ = wait_for(driver, "the stopped match's replay",
                        lambda s: not s["play"]["running"] and s["play"]["finished_replay"], 30)
    return ended["play"]["finished_replay"]


def verify_page_replay(driver, binary, page_path, out):
    """The replay the page wrote, taken from the page and re-simulated by the desktop studio:
    every frame exact."""
    text = driver.execute_script("return window.terminalStudio.studioFile(arguments[0]);", page_path)
    if not text:
        fail(f"the page has no file {page_path}")
    out.write_text(text)
    run = subprocess.run([binary, "verify", "--json", str(out)], capture_output=True, text=True, check=False)
    lines = run.stdout.strip().splitlines()
    report = json.loads(lines[0]) if lines else {}
    if run.returncode != 0 or report.get("status") != "exact":
        fail(f"the page's match replay does not re-verify ({run.returncode}): {run.stdout[-1500:]} {run.stderr[-500:]}")
    return report["frames_total"]


def cli_totals(binary, layout, replays):
    out = subprocess.run([binary, "stress", str(layout), "--attacks", *map(str, replays), "--json"],
                         capture_output=True, text=True, check=False)
    # 1: it ran and the layout was breached.
    if out.returncode not in (0, 1) or '"summary"' not in out.stdout:
        fail(f"the CLI's stress run failed ({out.returncode}): {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["summary"]


def main():
    if len(sys.argv) < 4:
        fail(__doc__)
    web, shared, binary = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    shots = Path(sys.argv[4]) if len(sys.argv) > 4 else Path("target/web-shots")
    shots.mkdir(parents=True, exist_ok=True)
    for need in [web / "index.html", web / "terminal_studio_bg.wasm", shared / "replays", binary]:
        if not need.exists():
            fail(f"missing {need}")
    repo = Path(__file__).resolve().parents[2]

    # The files the page is given, served beside it.
    files = web / "test-files"
    shutil.rmtree(files, ignore_errors=True)
    files.mkdir()
    replays = sorted(p for p in (shared / "replays").rglob("*.replay*") if p.is_file())
    largest = max(replays, key=lambda p: len(gzip.decompress(p.read_bytes())) if p.suffix == ".gz" else p.stat().st_size)
    live = sorted((shared / "replays" / "live-2022").glob("*.replay*"))[:LAB_REPLAYS]
    if len(live) < LAB_REPLAYS:
        fail(f"need {LAB_REPLAYS} replays in {shared / 'replays' / 'live-2022'}")
    for p in [largest, *live]:
        shutil.copy(p, files / p.name)
    shutil.copy(repo / "layouts" / LAYOUT, files / LAYOUT)
    base = serve(web)
    figures = {"largest_replay": largest.name}

    driver = browser(1000, 700)
    try:
        # 1. A linked replay, the largest: its first frame, and the board drawn.
        started = open_page(driver, f"{base}/index.html?replay=test-files/{largest.name}")
        loaded, _ = wait_for(driver, "the linked replay's first frame", lambda s: s["frame"] is not None)
        figures["first_frame_s"] = round(time.monotonic() - started, 2)
        if not loaded["replay"]["path"].endswith(largest.name):
            fail(f"the replay shown is {loaded['replay']['path']}, not {largest.name}")
        time.sleep(0.5)
        shot = shots / "web-debugger-1000x700.png"
        driver.save_screenshot(str(shot))
        share, colours = board_drawn(shot)
        figures["board_pixels_share"] = round(share, 3)
        if share < 0.2 or colours < 8:
            fail(f"the board is not drawn in {shot}: {share:.0%} of the middle differs, {colours} colours")

        # 2. A dropped replay opens; the arrow key steps its frames.
        dropped = live[2]
        drop_files(driver, [f"test-files/{dropped.name}"])
        shown, _ = wait_for(driver, "the dropped replay opens",
                            lambda s: s["replay"] and s["replay"]["path"].endswith(dropped.name) and s["frame"])
        canvas = driver.find_element(By.ID, "studio")
        ActionChains(driver).move_to_element(canvas).click().perform()
        index = shown["frame"]["index"]
        steps, frame_cpu = [], []
        for _ in range(20):
            t0 = time.monotonic()
            ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
            index += 1
            after, _ = wait_for(driver, f"frame {index} after the arrow key",
                                lambda s, i=index: s["frame"]["index"] == i, 10)
            steps.append(time.monotonic() - t0)
            if after.get("frame_cpu_ms") is not None:
                frame_cpu.append(after["frame_cpu_ms"])
        # From the key sent over WebDriver to the new frame seen by polling (WebDriver's own
        # round trips included), and the studio's CPU for a frame as eframe measures it.
        figures["step_median_ms"] = round(statistics.median(steps) * 1000, 1)
        figures["step_max_ms"] = round(max(steps) * 1000, 1)
        if frame_cpu:
            figures["frame_cpu_median_ms"] = round(statistics.median(frame_cpu), 2)

        # 3. Play against the dropped replay's player 2: a turn of yours, then the ghost's.
        played = play_against_ghost(driver, shots, figures)
        figures["play_replay_frames_exact"] = verify_page_replay(driver, binary, played, files / "played.replay")

        # 4. The Layout lab on a linked layout and dropped replays: the CLI's totals.
        open_page(driver, f"{base}/index.html?layout=test-files/{LAYOUT}")
        wait_for(driver, "the linked layout opens", lambda s: (s["layout"]["path"] or "").endswith(LAYOUT))
        drop_files(driver, [f"test-files/{p.name}" for p in live])
        wait_for(driver, "the dropped replays arrive",
                 lambda s: sum(1 for f, _ in s["files"] if f.startswith("/browser/replays/")) >= len(live))
        if not driver.execute_script("return window.terminalStudio.studioRun('Run stress test');"):
            fail("no command 'Run stress test' in the command table")
        lab, secs = wait_for(driver, "the Layout lab's totals", lambda s: s["lab"] is not None, 120)
        figures["lab_seconds"] = round(secs, 2)
        expected = cli_totals(binary, files / LAYOUT, [files / p.name for p in live])
        for key in ["attacks", "attacks_breached", "breaches", "hp_lost", "attackers_spawned",
                    "attackers_destroyed", "structures_lost", "sp_lost"]:
            if abs(float(lab["lab"][key]) - float(expected[key])) > 1e-6:
                fail(f"the lab's {key} is {lab['lab'][key]} in the browser, {expected[key]} in the CLI")
        figures["lab_attacks"] = lab["lab"]["attacks"]
        driver.save_screenshot(str(shots / "web-editor-1000x700.png"))
        assert_console_clean(driver)
    finally:
        driver.quit()

    # Large: the screenshots a person at a big screen sees.
    driver = browser(1600, 1000)
    try:
        open_page(driver, f"{base}/index.html?replay=test-files/{live[2].name}")
        wait_for(driver, "the replay at 1600x1000", lambda s: s["frame"] is not None)
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "web-debugger-1600x1000.png"))
        open_page(driver, f"{base}/index.html?layout=test-files/{LAYOUT}")
        wait_for(driver, "the layout at 1600x1000", lambda s: (s["layout"]["path"] or "").endswith(LAYOUT))
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "web-editor-1600x1000.png"))
        assert_console_clean(driver)
    finally:
        driver.quit()
    shutil.rmtree(files, ignore_errors=True)
    print("browser test passed")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
