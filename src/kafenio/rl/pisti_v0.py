"""PettingZoo AEC environment for Pişti (``shared/rules/fishing-relatives.md Part A``).

>>> from kafenio.rl import pisti_v0
>>> env = pisti_v0.env()  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "pisti"
raw_env, env = env_functions(GAME)
