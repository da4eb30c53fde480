"""Plays idle, but first reads its upgrade's shorthand from unitInformation[7] of the config
line, as a 2020–2023 algo does when the game starts: under a config with 7 unit entries (the
2018–2019 format, compat-mode-4) it fails there, before answering anything."""

import json
import sys

config = json.loads(sys.stdin.readline())
UPGRADE = config["unitInformation"][7]["shorthand"]

for line in sys.stdin:
    frame = json.loads(line)
    phase = frame["turnInfo"][0]
    if phase == 0:
        print("[]", flush=True)
        print("[]", flush=True)
    elif phase == 2:
        break
