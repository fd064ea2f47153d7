"""``python -m kafenio`` runs the ``kafenio`` command."""

from kafenio.cli import app

app()
