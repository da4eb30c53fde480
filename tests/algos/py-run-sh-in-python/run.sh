#!/usr/bin/env python3
"""A start script written in Python (its #! line names the interpreter): it starts the
idle algo. Run by bash instead, this file fails (bash would even run ImageMagick's
`import` on the line below, where it is installed)."""
import os

here = os.path.dirname(os.path.abspath(__file__))
os.execvp("python3", ["python3", "-u", os.path.join(here, "..", "py-idle", "algo.py")])
