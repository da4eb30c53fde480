"""`python -m terminal_studio`: the same as the `terminal-studio` command."""

from ._studio import main

main()
