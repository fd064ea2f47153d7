"""The terminal table (Textual): ``kafenio play GAME`` — a person against computer players.

:func:`run_table` starts it; :mod:`kafenio.tui.app` holds the match loop and the generic table,
:mod:`kafenio.tui.rummy` and :mod:`kafenio.tui.fishing` the families' boards and keys.
"""

from kafenio.tui.app import TableApp, run_table

__all__ = ["TableApp", "run_table"]
