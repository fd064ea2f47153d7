"""What the fishing family shares (``basra.md``; ``fishing-relatives.md`` §0).

* :mod:`kafenio.fishing.captures` — the capture enumerator (one implementation for the engine,
  the referee, the players and the interface);
* :mod:`kafenio.fishing.scoring` — card points, majority bonus, special captures;
* :mod:`kafenio.fishing.state` — the deal state machine and its hooks.
"""
