"""Fixed defence (turrets + walls), upgrades when affordable, all MP on scouts from (14, 0)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import terminal_algo as ta  # noqa: E402

from strategies import builder_turn  # noqa: E402

if __name__ == "__main__":
    ta.run(builder_turn)
