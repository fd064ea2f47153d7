"""Alembic environment (async template): runs the server's migrations on SQLite or PostgreSQL.

The database URL comes from the alembic config's ``sqlalchemy.url`` (set by
:func:`kafenio.server.store.upgrade`). SQLite gets ``render_as_batch`` (it cannot ALTER most
things).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from kafenio.server.models import Base

target_metadata = Base.metadata


def run_migrations_offline() -> None:
    """Emit SQL for the configured URL without connecting."""
    url = context.config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on an open connection."""
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    """Connect with the async driver and run the migrations."""
    engine = create_async_engine(context.config.get_main_option("sqlalchemy.url"), poolclass=pool.NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


def run() -> None:
    """Run the migrations the way the alembic command asked."""
    if context.is_offline_mode():
        run_migrations_offline()
    else:
        asyncio.run(run_async_migrations())


# alembic loads this file with its context set up; a plain import (doctest collection) does nothing
if getattr(context, "config", None) is not None:
    run()
