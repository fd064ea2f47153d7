"""The server's first schema: tables, moves and chat.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "kafenio_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("presets", JSONType, nullable=False),
        sa.Column("options", JSONType, nullable=False),
        sa.Column("rules", JSONType, nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("seats", JSONType, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("timer", sa.String(16), nullable=False),
        sa.Column("spectators", sa.Boolean(), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("ready", JSONType, nullable=False),
        sa.Column("rematch", JSONType, nullable=False),
        sa.Column("next_table", sa.String(16), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("summary", JSONType, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_kafenio_tables_phase", "kafenio_tables", ["phase"])
    op.create_index("ix_kafenio_tables_deadline", "kafenio_tables", ["deadline"])
    op.create_table(
        "kafenio_moves",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("kafenio_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "kafenio_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("kafenio_tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_kafenio_chat_table_id", "kafenio_chat", ["table_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_kafenio_chat_table_id", "kafenio_chat")
    op.drop_table("kafenio_chat")
    op.drop_table("kafenio_moves")
    op.drop_index("ix_kafenio_tables_deadline", "kafenio_tables")
    op.drop_index("ix_kafenio_tables_phase", "kafenio_tables")
    op.drop_table("kafenio_tables")
