"""Copies the importable terminal_studio package (its Python files and the built engine
library) into an algo's folder, so that the algo imports it from there and can be
uploaded with it:

    python3 bindings/python/vendor.py path/to/my-algo

The package must be importable by this Python (`maturin develop`, or a wheel installed).
For an upload to the official servers, build it on (or for) Linux x86_64.
"""

import shutil
import sys
from pathlib import Path

import terminal_studio

PACKAGE_FILES = ("__init__.py", "__init__.pyi", "py.typed")


def vendor(algo_folder):
    source = Path(terminal_studio.__file__).resolve().parent
    target = Path(algo_folder) / "terminal_studio"
    target.mkdir(parents=True, exist_ok=True)
    libraries = sorted(source.glob("_engine*.so")) + sorted(source.glob("_engine*.pyd"))
    if not libraries:
        raise SystemExit("no built engine library (_engine*.so) in %s" % source)
    for name in PACKAGE_FILES:
        if (source / name).exists():
            shutil.copy2(source / name, target / name)
    for library in libraries:
        shutil.copy2(library, target / library.name)
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: vendor.py ALGO_FOLDER")
    print(vendor(sys.argv[1]))
