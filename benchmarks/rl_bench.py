"""Learning-environment speed: kafenio's PettingZoo AEC loop against PettingZoo's and RLCard's gin rummy.

    python -m benchmarks.rl_bench [--seconds N] [--seed S] [--game basra]

:func:`kafenio_env_steps` plays the loop AI-NOTES §2.2 row C1 plays on ``gin_rummy_v4``: the
wrapped ``env()``, ``env.last()`` (observation and mask) at every step, and
``action_space(agent).sample(mask)``; finished agents step ``None``, uncounted. The anchors are
:func:`benchmarks.anchors.pettingzoo_gin_rummy` (C1) and :func:`benchmarks.anchors.rlcard_gin_rummy`
(B1). Targets (the RL layer's): at least 5× PettingZoo's steps/s and 1× RLCard's.
"""

from __future__ import annotations

import argparse
import json

from benchmarks.anchors import aec_random_steps, pettingzoo_gin_rummy, rlcard_gin_rummy

TARGETS = {"pettingzoo_gin_rummy": 5.0, "rlcard_gin_rummy": 1.0}
"""The steps/s ratio kafenio's environment must reach against each anchor."""


def kafenio_env_steps(seconds: float = 10.0, seed: int = 0, game: str = "basra") -> dict:
    """Play ``game``'s wrapped PettingZoo env with random masked actions for ``seconds``, in the
    same loop as the C1 anchor (:func:`benchmarks.anchors.aec_random_steps`).

    Returns:
        a :func:`benchmarks.anchors.result` dict; its decisions are the steps of agents on turn.
    """
    from kafenio.rl.aec import KafenioAECEnv, wrap

    return aec_random_steps(f"kafenio_{game}_env", wrap(KafenioAECEnv(game)), seconds, seed)


def main() -> None:
    """Measure kafenio's env and both anchors one after another; print JSON and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", default="basra")
    args = parser.parse_args()
    ours = kafenio_env_steps(args.seconds, args.seed, args.game)
    rows = [ours]
    for anchor in (pettingzoo_gin_rummy, rlcard_gin_rummy):
        row = anchor(args.seconds, args.seed)
        if "error" not in row:
            row["ratio"] = ours["decisions_per_s"] / row["decisions_per_s"]
            row["target"] = TARGETS[row["name"]]
        rows.append(row)
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
