"""Learning environments for every kafenio game (needs the ``rl`` extra: pettingzoo, gymnasium).

* :mod:`kafenio.rl.aec`: :class:`~kafenio.rl.aec.KafenioAECEnv`, one PettingZoo AEC environment
  generic over the engine contract; ``basra_v0``, ``biriba_v0``, ``buraco_v0``, … are its
  per-game modules in PettingZoo's ``env()`` / ``raw_env()`` shape.
* :mod:`kafenio.rl.gym`: :class:`~kafenio.rl.gym.KafenioGymEnv`, a Gymnasium single-agent
  environment (one learning seat, kafenio players in the others) with ``action_masks()``.
* :mod:`kafenio.openspiel` (outside this package) registers the games with OpenSpiel.
"""
