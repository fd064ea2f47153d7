"""The games: each module defines ``GAME``, its :class:`kafenio.engine.game.Game` subclass."""
