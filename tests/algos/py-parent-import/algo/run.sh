#!/usr/bin/env bash
exec python3 -u "$(dirname "$0")/algo.py"
