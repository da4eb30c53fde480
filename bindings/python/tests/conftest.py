import sys
from pathlib import Path

import pytest

# The helpers beside the tests (replays.py) import as plain modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))

import replays  # noqa: E402
import terminal_studio as ts  # noqa: E402

# A mid-game live-2022 replay the API tests take their states from.
MID_GAME = "live-2022/Acceleraizer__c1terminal-algo__1011.replay.gz"


@pytest.fixture(scope="module")
def replay():
    return replays.Replay(replays.replays_folder() / MID_GAME)


@pytest.fixture(scope="module")
def rules(replay):
    return ts.Rules(replay.config_line)
