#!/usr/bin/env bash
# py-sim-attacker without its simulator: the baseline it is measured against.
SIM_ATTACKER=off exec python3 -u "$(dirname "$0")/../py-sim-attacker/algo.py"
