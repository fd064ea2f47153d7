"""PettingZoo AEC environment for Buraco (``shared/rules/buraco.md``).

>>> from kafenio.rl import buraco_v0
>>> env = buraco_v0.env(preset="brazilian_4p")  # doctest: +SKIP
>>> env.reset(seed=42)                          # doctest: +SKIP

Agents, observations, masks, rewards and errors: :mod:`kafenio.rl.aec`; the observation layout:
``docs/observations.md``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from kafenio.rl.aec import KafenioAECEnv, wrap

GAME = "buraco"


def raw_env(**kwargs: Any) -> KafenioAECEnv:
    """The unwrapped environment: keyword arguments ``preset``, ``rules``
    (``load_game``'s options), ``render_mode``.

    Raises:
        RulesError: an unknown preset (the message lists the presets) or rule option, or the
            game not installed yet.
    """
    return KafenioAECEnv(GAME, **kwargs)


def env(**kwargs: Any) -> AECEnv:
    """:func:`raw_env` with PettingZoo's standard wrappers (:func:`kafenio.rl.aec.wrap`)."""
    return wrap(raw_env(**kwargs))
