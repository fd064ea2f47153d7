"""Computer seats have names: every stored computer seat without one gets the name a new table's
would (:func:`kafenio.agents.names.computer_names`, drawn from the table id, not a person's name at
the table; in the language the migration runs in, English by default).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from kafenio.agents.names import computer_names

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
TABLES = sa.table("kafenio_tables", sa.column("id", sa.String(16)), sa.column("seats", JSONType))


def upgrade() -> None:
    """Name the unnamed computer seats."""
    bind = op.get_bind()
    for table_id, seats in bind.execute(sa.select(TABLES.c.id, TABLES.c.seats)).all():
        unnamed = [s for s in seats if s["kind"] == "computer" and not s.get("name")]
        if not unnamed:
            continue
        people = [s["name"] for s in seats if s.get("name")]
        for seat, name in zip(unnamed, computer_names(len(unnamed), table_id, people), strict=True):
            seat["name"] = name
        bind.execute(TABLES.update().where(TABLES.c.id == table_id).values(seats=seats))


def downgrade() -> None:
    """Computer seats without names again (the name is all this revision added)."""
    bind = op.get_bind()
    for table_id, seats in bind.execute(sa.select(TABLES.c.id, TABLES.c.seats)).all():
        for seat in seats:
            if seat["kind"] == "computer":
                seat["name"] = None
        bind.execute(TABLES.update().where(TABLES.c.id == table_id).values(seats=seats))
