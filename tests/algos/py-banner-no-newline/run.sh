#!/usr/bin/env bash
# A start-up banner without a newline, as some launchers print, then the builder.
printf 'Loading...'
exec python3 -u "$(dirname "$0")/../py-builder/algo.py"
