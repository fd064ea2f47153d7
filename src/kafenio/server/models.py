"""Database tables of the server (SQLAlchemy 2 declarative models).

``tables`` holds one row per table: the game, its rules, the secret match seed, the seats, the
phase data and the ``version`` that every change compares-and-sets. ``moves`` holds the accepted
actions in order; a table's state is rebuilt by replaying them from the seed. ``chat`` holds the
chat lines. JSON columns are ``JSONB`` on PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Dialect, Float, ForeignKey, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

JSONType = JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(TypeDecorator):
    """A timezone-aware UTC time on every database: SQLite keeps no time zone, so its times are
    read back as UTC (a table rebuilt from SQLite shows the same ``created_at`` as when live)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """The stored time, in UTC."""
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class TableRow(Base):
    """A table.

    ``seats`` is a list of ``{"kind", "level", "name", "token_hash", "away"}``; ``deal`` is the
    index of the deal being played (−1 while waiting for players); ``ready`` and ``rematch`` the
    seats that sent ``next_deal`` / ``rematch``; ``deadline`` the running clock (Unix time);
    ``summary`` derived public data for the lobby (totals, winner, deals played).
    """

    __tablename__ = "kafenio_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    presets: Mapped[list[str]] = mapped_column(JSONType)
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    rules: Mapped[dict[str, Any]] = mapped_column(JSONType)
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    phase: Mapped[str] = mapped_column(String(16), index=True)
    deal: Mapped[int] = mapped_column(Integer, default=-1)
    version: Mapped[int] = mapped_column(Integer, default=0)
    timer: Mapped[str] = mapped_column(String(16), default="off")
    spectators: Mapped[bool] = mapped_column(Boolean, default=True)
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    ready: Mapped[list[int]] = mapped_column(JSONType)
    rematch: Mapped[list[int]] = mapped_column(JSONType)
    next_table: Mapped[str | None] = mapped_column(String(16), nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    summary: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class MoveRow(Base):
    """An accepted action: ``seq`` counts from 0 over the whole match."""

    __tablename__ = "kafenio_moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("kafenio_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatRow(Base):
    """A chat line."""

    __tablename__ = "kafenio_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("kafenio_tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime())
