"""PettingZoo AEC environment for Diloti (``shared/rules/fishing-relatives.md Part C``).

>>> from kafenio.rl import diloti_v0
>>> env = diloti_v0.env()  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "diloti"
raw_env, env = env_functions(GAME)
