"""``python -m scorekeeper``: serve the app on every interface and print the URLs to open.

Plain HTTP is served by waitress. With ``--https`` the app is served over TLS too, by cheroot, with
this installation's own certificate authority (made once, see ``tls.py``); the plain-HTTP port stays
open, for phones that have not trusted the authority yet and for the page that offers it (/trust).
"""

from __future__ import annotations

import argparse
import logging
import os
import threading

from waitress import serve

from . import create_app, tls
from .share import lan_addresses

# waitress warns "Task queue depth is 1" whenever a request waits a moment for a free thread, which
# happens in ordinary play (several phones polling); the console keeps the start-up lines and errors.
QUIET_LOGGERS = ("waitress.queue",)


def _start_https(app, args) -> tuple[object, tls.Ready]:
    """Make (once) the authority and a server certificate for this machine's names and addresses,
    then serve the app over TLS from a thread; the cheroot server (to stop at the end) and the names
    its certificate holds."""
    ready = tls.ensure(
        tls.app_files(app),
        tls.machine_names(app.config.get("EXTRA_HOSTS", ())),
        app.config.get("EXTRA_HOSTS", ()),
    )
    if ready.created_authority:
        print(f"Made this installation's certificate authority: {ready.files.ca_cert}", flush=True)
    if ready.issued:
        print(f"Issued the server certificate for: {', '.join(ready.names)}", flush=True)
    if ready.refused:
        print(
            "Left out of the certificate (not a home-network name or address): " + ", ".join(ready.refused),
            flush=True,
        )
    app.config["HTTPS_PORT"] = args.https_port
    server = tls.https_server(app, args.host, args.https_port, args.threads, ready.files)
    server.prepare()  # binds now: a port in use stops the start here, with the error
    threading.Thread(target=server.serve, name="https", daemon=True).start()
    return server, ready


def main() -> None:
    """Parse the command line and serve until stopped."""
    parser = argparse.ArgumentParser(description="Canasta score keeper")
    parser.add_argument(
        "--host", default="0.0.0.0", help="interface to listen on (default: all, so phones can reach it)"
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=8, help="requests served at once (default: 8)")
    parser.add_argument(
        "--https",
        action="store_true",
        help="also serve HTTPS (installable app, pages load with no connection) with this installation's own "
        "certificate authority, made on first use; each phone trusts it once at http://<this computer>/trust",
    )
    parser.add_argument("--https-port", type=int, default=8443, help="port for HTTPS (default: 8443)")
    args = parser.parse_args()
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    os.umask(0o077)  # whatever the app writes to instance/ (database, backups, config, keys) is private
    app = create_app()
    https, ready = _start_https(app, args) if args.https else (None, None)
    addresses = lan_addresses() or ("<this computer's address>",)
    print("Canasta score keeper is running. Open on a phone on the same network:", flush=True)
    for address in addresses:
        print(f"    http://{address}:{args.port}/", flush=True)
    if https is not None:
        print("To install it on a phone (HTTPS), trust this computer once on the phone at:", flush=True)
        print(f"    http://{addresses[0]}:{args.port}/trust", flush=True)
        print("then open:", flush=True)
        # only names the certificate holds open without a warning
        secure = [a for a in addresses if a in ready.names] or [n for n in ready.names if n.endswith(".local")]
        for address in secure or ["localhost"]:
            print(f"    https://{address}:{args.https_port}/", flush=True)
    print(f"On this computer: http://127.0.0.1:{args.port}/   (Ctrl+C stops it)", flush=True)
    try:
        serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorekeeper")
    finally:
        if https is not None:
            https.stop()


if __name__ == "__main__":
    main()
