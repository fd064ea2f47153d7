"""PettingZoo AEC environment for Basra (``shared/rules/basra.md``).

>>> from kafenio.rl import basra_v0
>>> env = basra_v0.env(preset="egyptian")  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "basra"
raw_env, env = env_functions(GAME)
