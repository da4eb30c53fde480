"""The `terminal-studio` command of the wheel: the studio binary (command line and window)
bundled in this package's `bin` folder, started with the caller's arguments, standard
streams and signals.

On Unix the Python process replaces itself with the studio (exec), so the studio is the
process the shell, a pipe or a signal sees, exactly as the cargo-built binary. Windows has
no exec: the studio runs as a child on the same console (Ctrl+C reaches it directly), and
its exit status is passed on.
"""

import os
import subprocess
import sys
from pathlib import Path

_BINARY_NAME = "terminal-studio.exe" if os.name == "nt" else "terminal-studio"


def studio_path() -> Path:
    """Where the bundled studio binary of this install is."""
    return Path(__file__).resolve().parent / "bin" / _BINARY_NAME


def main() -> "None":
    binary = studio_path()
    if not binary.is_file():
        sys.stderr.write(
            f"terminal-studio: the studio binary is missing from this install ({binary}).\n"
            "This wheel carries only the Python module; reinstall from a wheel built by "
            "scripts/release.sh: pip install --force-reinstall terminal-studio\n"
        )
        sys.exit(1)
    args = [str(binary), *sys.argv[1:]]
    if os.name == "nt":
        sys.exit(_run_as_child(args))
    if not os.access(binary, os.X_OK):
        sys.stderr.write(
            f"terminal-studio: {binary} is not executable; the install lost its mode bits "
            f"(chmod +x {binary}, or reinstall)\n"
        )
        sys.exit(1)
    _restore_inherited_signals()
    os.execv(binary, args)


def _restore_inherited_signals() -> None:
    import signal

    # Python ignores SIGPIPE and SIGXFSZ for itself, and an ignored signal stays ignored
    # across exec: the studio, and the algos it starts under a file-size limit, would then
    # not see what they see started from a shell.
    for name in ("SIGPIPE", "SIGXFSZ"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


def _run_as_child(args: "list[str]") -> int:
    import signal

    # Ctrl+C is sent to every process of the console: the studio decides what it means
    # (a running match stops cleanly), and this wrapper waits for its answer.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return subprocess.run(args).returncode
    except OSError as error:
        sys.stderr.write(f"terminal-studio: could not start {args[0]}: {error}\n")
        return 1
