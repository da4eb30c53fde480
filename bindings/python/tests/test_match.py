"""The example algo, with the module vendored into its folder, plays a real match through
our runner against py-builder."""

import shutil
import subprocess
import sys

import replays
from replays import studio_binary

ROOT = replays.workspace_root()


def test_sim_attacker_plays_a_match_with_the_vendored_module(tmp_path):
    algos = tmp_path / "algos"
    shutil.copytree(ROOT / "tests" / "algos" / "lib", algos / "lib")
    # The marker that lets the confined algos read their shared `lib` beside them.
    shutil.copy(ROOT / "tests" / "algos" / ".algos-share-this-folder", algos)
    algo = algos / "py-sim-attacker"
    shutil.copytree(ROOT / "tests" / "algos" / "py-sim-attacker", algo, ignore=shutil.ignore_patterns("terminal_studio"))
    vendor = ROOT / "bindings" / "python" / "vendor.py"
    subprocess.run([sys.executable, str(vendor), str(algo)], check=True)
    assert (algo / "terminal_studio" / "__init__.py").exists()

    replay = tmp_path / "match.replay"
    run = subprocess.run(
        [str(studio_binary()), "match", str(algo), str(ROOT / "tests" / "algos" / "py-builder"), "--replay", str(replay), "-v"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "simulator on" in output, output
    simulations = [line for line in output.splitlines() if line.rstrip().endswith(" simulations")]
    assert simulations and int(simulations[-1].split()[-2]) > 0, output
    assert replay.exists()
