"""``kafenio serve`` and ``kafenio db upgrade`` (registered on the main CLI by :func:`register`)."""

import threading
import webbrowser
from dataclasses import replace
from typing import Annotated, Any

import typer

from kafenio.i18n import N_, _
from kafenio.server.limits import Limits

DEFAULTS = Limits()

DbUrlOpt = Annotated[str | None, typer.Option(
    "--database-url", help=N_("SQLAlchemy URL (sqlite:///FILE or postgresql://…); default: SQLite in "
                              "the user's data folder."))]


def register(app: typer.Typer) -> None:
    """Add ``serve`` and the ``db`` group to ``app``."""
    # imported here: kafenio.cli imports this module to call register (a module-level import
    # would be circular when this module is imported first, as by the server benchmark)
    from kafenio.cli import App, speak

    db_app = App(help=N_("The server's database."), no_args_is_help=True)
    app.add_typer(db_app, name="db")

    @db_app.command("upgrade", help=N_("Create or upgrade the server's tables (alembic migrations)."))
    def db_upgrade(database_url: DbUrlOpt = None,
                   revision: Annotated[str, typer.Option(help=N_("Target revision."))] = "head") -> None:
        """Create or upgrade the server's tables (alembic migrations)."""
        from kafenio.server.store import default_database_url, upgrade

        url = database_url or default_database_url()
        upgrade(url, revision)
        typer.echo(_("database at {rev}: {url}").format(rev=revision, url=_hide_password(url)))

    @app.command(help=N_("Run the game server: migrate the database, serve the lobby and the tables."))
    def serve(host: Annotated[str, typer.Option(help=N_("Address to listen on."))] = "127.0.0.1",
              port: Annotated[int, typer.Option(help=N_("Port to listen on."))] = 8000,
              database_url: DbUrlOpt = None,
              redis_url: Annotated[str | None, typer.Option(
                  help=N_("Redis URL, to run several server processes on one PostgreSQL database."))] = None,
              bot_delay: Annotated[float, typer.Option(
                  help=N_("Seconds a computer player waits before each action."))] = 0.6,
              no_browser: Annotated[bool, typer.Option("--no-browser", help=N_("Do not open the lobby."))] = False,
              lang: Annotated[str | None, typer.Option(
                  "--lang", is_eager=True, callback=speak,
                  help=N_("Language of the server's messages (rule texts, errors), e.g. el; "
                          "default: the environment's (LANG)."))] = None,
              tables_per_minute: Annotated[float, typer.Option(
                  min=0.1, envvar="KAFENIO_TABLES_PER_MINUTE",
                  help=N_("Tables one client address may create a minute."))] = DEFAULTS.tables_per_minute,
              sockets_per_client: Annotated[int, typer.Option(
                  min=1, envvar="KAFENIO_SOCKETS_PER_CLIENT",
                  help=N_("WebSockets one client address may hold open."))] = DEFAULTS.sockets_per_client,
              chat_per_minute: Annotated[float, typer.Option(
                  min=0.1, envvar="KAFENIO_CHAT_PER_MINUTE",
                  help=N_("Chat lines one client address may send a minute."))] = DEFAULTS.chat_per_minute,
              lookups_per_minute: Annotated[float, typer.Option(
                  min=0.1, envvar="KAFENIO_LOOKUPS_PER_MINUTE",
                  help=N_("Requests for unknown tables one client address may make a minute."))
              ] = DEFAULTS.lookups_per_minute,
              bot_workers: Annotated[int, typer.Option(
                  min=1, envvar="KAFENIO_BOT_WORKERS",
                  help=N_("Computer players thinking at the same time, server-wide."))] = DEFAULTS.bot_workers,
              body_bytes: Annotated[int, typer.Option(
                  min=1024, envvar="KAFENIO_BODY_BYTES", help=N_("The largest request body accepted, in bytes."))
              ] = DEFAULTS.body_bytes,
              allowed_origin: Annotated[list[str] | None, typer.Option(
                  envvar="KAFENIO_ALLOWED_ORIGINS",
                  help=N_("A web origin (https://host:port) whose pages may open the table's WebSockets, "
                          "besides the server's own; repeatable; * for any."))] = None,
              ) -> None:
        """Run the game server: migrate the database, serve the lobby and the tables."""
        import uvicorn

        from kafenio.server.app import ServerSettings, create_app
        from kafenio.server.store import default_database_url, upgrade

        url = database_url or default_database_url()
        upgrade(url)
        limits = replace(DEFAULTS, tables_per_minute=tables_per_minute, sockets_per_client=sockets_per_client,
                         chat_per_minute=chat_per_minute, lookups_per_minute=lookups_per_minute,
                         bot_workers=bot_workers, body_bytes=body_bytes, allowed_origins=tuple(allowed_origin or ()))
        app_ = create_app(ServerSettings(database_url=url, redis_url=redis_url, bot_delay=bot_delay, limits=limits))
        address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        typer.echo(_("kafenio server at {address} (database {url})").format(address=address,
                                                                            url=_hide_password(url)))
        if not no_browser:
            threading.Timer(1.0, webbrowser.open, args=(address,)).start()
        uvicorn.run(app_, host=host, port=port, log_level="info", **uvicorn_options())


def uvicorn_options() -> dict[str, Any]:
    """The WebSocket settings ``kafenio serve`` gives uvicorn (``benchmarks/server_bench.py``
    runs the server with the same): the ``websockets`` implementation, frames up to
    :data:`~kafenio.server.protocol.MAX_FRAME_BYTES`."""
    from kafenio.server.protocol import MAX_FRAME_BYTES

    return {"ws": "websockets", "ws_max_size": MAX_FRAME_BYTES}


def _hide_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
