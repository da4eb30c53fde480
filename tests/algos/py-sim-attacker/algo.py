"""py-builder's defence, and each turn the best of a set of candidate attacks, chosen by
simulating every candidate with the vendored engine module (terminal_studio).

The module is looked for in this folder (`terminal_studio/`, put there by
`python3 bindings/python/vendor.py tests/algos/py-sim-attacker`). Without it, or with
SIM_ATTACKER=off, the algo plays the same defence and always the default candidate
(all MP on scouts from (14, 0), py-builder's attack): the baseline the simulator must beat.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import terminal_algo as ta  # noqa: E402
from strategies import builder_defence  # noqa: E402

try:
    import terminal_studio as ts
except ImportError:
    ts = None

SIMULATE = ts is not None and os.environ.get("SIM_ATTACKER", "on") != "off"

# Deploy tiles (own edges), the default first.
ATTACK_TILES = [(14, 0), (13, 0), (6, 7), (21, 7), (3, 10), (24, 10), (0, 13), (27, 13)]
ATTACK_TYPES = [ta.SCOUT, ta.DEMOLISHER]
# Score weights: HP taken wins games; destroyed structures and damage break ties.
BREACH_WEIGHT = 10.0
SP_DESTROYED_WEIGHT = 1.0
STRUCTURE_DAMAGE_WEIGHT = 0.02
# Bringing the opponent to 0 HP ends the game: worth more than any wave.
LETHAL = 1e6
# Next turn's attacks tried after each choice of this turn: the best few of this turn's.
FOLLOW_UPS = 4
# Next turn counts for less: the opponent's next moves are guesses (and a win now is a win).
FOLLOW_UP_WEIGHT = 0.8


class SimAttacker:
    def __init__(self):
        self.rules = None
        self.simulations = 0
        # The opponent's last deploy line, read from the spawn events of action frame 0
        # (the module cannot know this turn's; assuming a repeat is a fair guess).
        self.opponent_deploy = []
        # Every structure the opponent has held, by tile (in the order first seen), and the
        # tiles it upgraded: it is assumed to rebuild what it lost this turn.
        self.opponent_layout = {}
        self.opponent_upgrades = set()

    def remember_opponent_structures(self, state):
        for u in state.enemy.structures():
            self.opponent_layout.setdefault((u.x, u.y), u.type)
        self.opponent_upgrades |= state.enemy.upgraded_tiles()

    def opponent_build(self, state):
        """The opponent's lost structures placed again, then its upgrades redone."""
        standing = {(u.x, u.y) for u in state.enemy.structures()}
        upgraded = state.enemy.upgraded_tiles()
        line = [[state.sh.by_index[t], x, y] for (x, y), t in self.opponent_layout.items() if (x, y) not in standing]
        line += [[state.sh.upgrade, x, y] for (x, y) in sorted(self.opponent_upgrades - upgraded)]
        return line

    def on_action_frame(self, state):
        if state.action_frame != 0:
            return
        spawns = state.events.get("spawn", [])
        mobile = [s for s in spawns if s[3] == 2 and s[1] in ta.MOBILE_TYPES]
        self.opponent_deploy = [[state.sh.by_index[s[1]], s[0][0], s[0][1]] for s in mobile]

    def opponent_line(self, config, mp):
        """The opponent's last deploy line, repeated as its MP allows."""
        line, i = [], 0
        while self.opponent_deploy and i < 1000:
            entry = self.opponent_deploy[i % len(self.opponent_deploy)]
            cost = config.cost(config.sh.index_of(entry[0]))[1]
            if cost <= 0 or cost > mp + 1e-9:
                break
            mp -= cost
            line.append(entry)
            i += 1
        return line

    def on_config(self, config):
        if SIMULATE:
            self.rules = ts.Rules(config.raw)
        ta.debug("py-sim-attacker: simulator %s" % ("on" if SIMULATE else "off"))

    def candidates(self, planner):
        """The attacks considered: (unit type, tile), each spending all MP on that type."""
        return [(t, tile) for t in ATTACK_TYPES for tile in ATTACK_TILES if tile not in planner.taken]

    def deploy_line(self, config, candidate, mp):
        unit_type, (x, y) = candidate
        cost = config.cost(unit_type)[1]
        count = int(mp // cost) if cost > 0 else 0
        return [[config.sh.by_index[unit_type], x, y]] * count

    def score(self, outcome):
        me = outcome.p1
        return (
            (LETHAL if outcome.p2.hp <= 0 else 0.0)
            + BREACH_WEIGHT * me.breach_damage
            + SP_DESTROYED_WEIGHT * me.sp_destroyed
            + STRUCTURE_DAMAGE_WEIGHT * me.structure_damage
        )

    def simulate(self, config, board, candidate, opponent_build=None):
        """(score, state at the next turn) of attacking with `candidate` (None: hold)."""
        trial = board.copy()
        ours = self.deploy_line(config, candidate, trial.mp()) if candidate is not None else []
        opponent_deploy = self.opponent_line(config, trial.mp(2))
        trial.apply_turn(deploy=ours, opponent_build=opponent_build, opponent_deploy=opponent_deploy)
        self.simulations += 1
        return self.score(trial.run()), trial

    def choose(self, state, planner, candidates):
        """Looks two turns ahead: each attack now (or holding the MP for a larger wave)
        followed by the best of the most promising attacks next turn."""
        config = state.config
        board = ts.GameState(self.rules, state.frame)
        board.build(planner.build)
        rebuild = self.opponent_build(state)
        now = [(c,) + self.simulate(config, board, c, rebuild) for c in candidates]
        now.append((None,) + self.simulate(config, board, None, rebuild))
        ranked = sorted((n for n in now if n[0] is not None), key=lambda n: -n[1])
        follow_ups = [n[0] for n in ranked[:FOLLOW_UPS]]
        best, best_value = None, None
        for candidate, score, after in now:
            if after.game_over:
                value = score
            else:
                value = score + FOLLOW_UP_WEIGHT * max(self.simulate(config, after, f)[0] for f in follow_ups)
            if best_value is None or value > best_value + 1e-6:
                best, best_value = candidate, value
        if os.environ.get("SIM_ATTACKER_DEBUG"):
            ta.debug("turn %d: %s value %.1f; now: %s" % (state.turn, best, best_value, [(c, round(sc, 1)) for c, sc, _ in now]))
        if best is None:
            return []
        return self.deploy_line(config, best, planner.mp)

    def on_turn(self, state):
        self.remember_opponent_structures(state)
        planner = builder_defence(state)
        candidates = self.candidates(planner)
        if not candidates:
            return planner.build, []
        if SIMULATE:
            deploy = self.choose(state, planner, candidates)
        else:
            deploy = self.deploy_line(state.config, candidates[0], planner.mp)
        return planner.build, deploy

    def on_end(self, state):
        ta.debug("py-sim-attacker: %d simulations" % self.simulations)


if __name__ == "__main__":
    algo = SimAttacker()
    ta.run(algo.on_turn, on_action_frame=algo.on_action_frame, on_config=algo.on_config, on_end=algo.on_end)
