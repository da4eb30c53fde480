"""The `terminal-studio` command the wheel installs: the bundled studio binary, started with
the caller's arguments, exit status, streams and signals. Runs on an installed wheel (CI's
clean venv); a module built without the binary (`maturin develop`) fails here, by name."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import replays
from terminal_studio import _studio

ROOT = replays.workspace_root()


def bundled_binary():
    path = _studio.studio_path()
    assert path.is_file(), (
        "%s is missing: this install carries only the module; build the wheel with "
        "scripts/release.sh and install it" % path
    )
    return path


def command(*args):
    """The command as a player types it: the console script's code, through Python."""
    return [sys.executable, "-m", "terminal_studio", *args]


def test_version_and_arguments_pass_through():
    bundled_binary()
    run = subprocess.run(command("--version"), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("terminal-studio "), run.stdout


def test_exit_status_and_stderr_are_the_studios(tmp_path):
    binary = bundled_binary()
    missing = str(tmp_path / "no-such.replay")
    direct = subprocess.run([str(binary), "verify", missing], capture_output=True, text=True, timeout=60)
    wrapped = subprocess.run(command("verify", missing), capture_output=True, text=True, timeout=60)
    assert direct.returncode != 0, direct.stdout
    assert wrapped.returncode == direct.returncode, (wrapped.returncode, direct.returncode)
    assert wrapped.stderr == direct.stderr


def test_stdout_is_a_pipe_the_studio_writes(tmp_path):
    bundled_binary()
    replay = replays.replays_folder() / "special-2025"
    run = subprocess.run(command("verify", str(replay)), stdout=subprocess.PIPE, text=True, timeout=300)
    assert run.returncode == 0
    assert "24 exact, 0 diverged" in run.stdout, run.stdout


@pytest.mark.skipif(os.name == "nt" or not Path("/proc").is_dir(), reason="exec and /proc: Linux only")
def test_on_linux_the_studio_replaces_python_and_takes_ctrl_c(tmp_path):
    binary = bundled_binary()
    algos = tmp_path / "algos"
    shutil.copytree(ROOT / "tests" / "algos" / "lib", algos / "lib")
    shutil.copy(ROOT / "tests" / "algos" / ".algos-share-this-folder", algos)
    shutil.copytree(ROOT / "tests" / "algos" / "py-hang", algos / "py-hang")
    shutil.copytree(ROOT / "tests" / "algos" / "py-idle", algos / "py-idle")
    replay = tmp_path / "hung.replay"
    process = subprocess.Popen(
        command("match", str(algos / "py-idle"), str(algos / "py-hang"), "--replay", str(replay), "--max-ms", "120000"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # py-hang answers turn 0, then never answers turn 1: the match waits on it.
        deadline = time.monotonic() + 60
        while not replay.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert replay.exists(), "the match wrote no replay within 60 s"
        assert Path("/proc/%d/exe" % process.pid).resolve() == binary.resolve(), "Python did not exec the studio"
        status = Path("/proc/%d/status" % process.pid).read_text()
        ignored = int(next(l for l in status.splitlines() if l.startswith("SigIgn:")).split()[1], 16)
        assert not ignored & (1 << (signal.SIGXFSZ - 1)), "SIGXFSZ stayed ignored from Python"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert "interrupted" in err, err
    assert replay.stat().st_size > 0
