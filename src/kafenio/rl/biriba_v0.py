"""PettingZoo AEC environment for Biriba (``shared/rules/biriba.md``).

>>> from kafenio.rl import biriba_v0
>>> env = biriba_v0.env(preset="standard_4p")  # doctest: +SKIP
>>> env.reset(seed=42)       # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from kafenio.rl.aec import env_functions

GAME = "biriba"
raw_env, env = env_functions(GAME)
