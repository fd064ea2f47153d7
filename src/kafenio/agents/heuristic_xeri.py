"""A card-counting Xeri player (``fishing-relatives.md`` Part B): the pile player of
:mod:`kafenio.agents.heuristic_pisti` (Xeri is the same pile game with other values)."""

from __future__ import annotations

from kafenio.agents.heuristic_pisti import HeuristicPlayer

__all__ = ["HeuristicPlayer"]
