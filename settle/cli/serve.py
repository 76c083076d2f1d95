"""``settle serve``: the scorekeeper's page (issue 17), a thin command over :mod:`settle.web`.

The web layer and its dependencies (the ``web`` extra) are imported only when the command runs.
"""

import socket
from typing import Annotated

import typer

from settle.cli import EXIT_OUTSIDE, app


def default_db() -> str:
    """The default SQLite file: ``settle.db`` in the user's data directory (platformdirs)."""
    import platformdirs

    return str(platformdirs.user_data_path("settle", appauthor=False) / "settle.db")


def lan_address() -> str | None:
    """This machine's address on the local network (from its host name's addresses, no packet sent),
    or None when it has only loopback addresses."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    found = [str(info[4][0]) for info in infos if not str(info[4][0]).startswith("127.")]
    return found[0] if found else None


def terminal_qr(url: str) -> str:
    """``url`` as a QR code drawn with block characters for a terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(metavar="ADDRESS",
                                      help="address to listen on; 0.0.0.0 lets the phones at the table join "
                                           "over the local network")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, metavar="N", help="port")] = 8000,
    db: Annotated[str | None, typer.Option(metavar="FILE", help="SQLite file (default: settle.db in the user's data "
                                                "directory)")] = None,
) -> None:
    """Serve the scorekeeper's page: tables, hands, running totals and settle-up, in one SQLite file.

    \b
    Example:
      settle serve --host 0.0.0.0 --port 8000
    """
    try:
        import uvicorn

        from settle.web import create_app
    except ModuleNotFoundError as exc:
        typer.echo(f"error: settle serve needs the web extra ({exc.name} is missing): "
                   "pip install 'settle[web]'", err=True)
        raise typer.Exit(EXIT_OUTSIDE) from None
    path = db or default_db()
    application = create_app(path)
    shown = host
    if host in ("0.0.0.0", "::"):
        shown = lan_address() or "127.0.0.1"
    listening = listen(host, port)
    url = f"http://{shown}:{port}/"
    typer.echo(f"settle serve: {url}  (data: {path})")
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(terminal_qr(url))
    config = uvicorn.Config(application, host=host, port=port, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[listening])


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``; a port in use or an address not of this machine exits 4
    (:data:`~settle.cli.EXIT_OUTSIDE`) with one line."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        typer.echo(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_OUTSIDE) from None
    return sock
