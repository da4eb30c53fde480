#!/usr/bin/env bash
# Starts a child in a session of its own (so outside the algo's process group), says its
# process id on stderr, then plays idle. The child must end with the match all the same.
setsid sleep 100000 &
echo "sh-setsid-child: child pid $!" >&2
exec python3 -u "$(dirname "$0")/../py-idle/algo.py"
