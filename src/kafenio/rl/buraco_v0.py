"""PettingZoo AEC environment for Buraco / Burraco (``shared/rules/buraco.md``).

>>> from kafenio.rl import buraco_v0
>>> env = buraco_v0.env(preset="brazilian_4p")  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "buraco"
raw_env, env = env_functions(GAME)
