"""PettingZoo AEC environment for Xeri (``shared/rules/fishing-relatives.md Part B``).

>>> from kafenio.rl import xeri_v0
>>> env = xeri_v0.env()  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "xeri"
raw_env, env = env_functions(GAME)
