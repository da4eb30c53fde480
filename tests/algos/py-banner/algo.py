"""Builder play, but prints two banner lines to stdout while it starts, as some libraries
do at import (pygame: its version line and a greeting). BANNER=json prints two lines that
would be valid replies instead, to show that what matters is when they were printed."""

import os
import sys

BANNERS = {
    "pygame": [
        "pygame 2.5.2 (SDL 2.28.3, Python 3.11.7)",
        "Hello from the pygame community. https://www.pygame.org/contribute.html",
    ],
    "json": ['[["FF", 0, 13], ["FF", 1, 13]]', '[["SI", 13, 0]]'],
}

# What such a library does at import: print to stdout before the algo has read anything.
for banner_line in BANNERS[os.environ.get("BANNER", "pygame")]:
    print(banner_line, flush=True)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

from strategies import builder_turn  # noqa: E402

if __name__ == "__main__":
    ta.run(builder_turn)
