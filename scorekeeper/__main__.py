"""``python -m scorekeeper``: serve the app with waitress on every interface and print the URLs to open."""

from __future__ import annotations

import argparse
import os

from waitress import serve

from . import create_app
from .share import lan_addresses


def main() -> None:
    """Parse the command line and serve until stopped."""
    parser = argparse.ArgumentParser(description="Canasta score keeper")
    parser.add_argument(
        "--host", default="0.0.0.0", help="interface to listen on (default: all, so phones can reach it)"
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=8, help="requests served at once (default: 8)")
    args = parser.parse_args()
    os.umask(0o077)  # whatever the app writes to instance/ (database, backups, config) is private
    app = create_app()
    print("Canasta score keeper is running. Open on a phone on the same network:", flush=True)
    for address in lan_addresses() or ["<this computer's address>"]:
        print(f"    http://{address}:{args.port}/", flush=True)
    print(f"On this computer: http://127.0.0.1:{args.port}/   (Ctrl+C stops it)", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorekeeper")


if __name__ == "__main__":
    main()
