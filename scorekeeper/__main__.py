"""``python -m scorekeeper``: serve the app on every interface and print the URLs to open.

Plain HTTP is served by waitress. With ``--https`` the app is served over TLS too, by cheroot, with
this installation's own certificate authority (made once, see ``tls.py``); the plain-HTTP port stays
open, for phones that have not trusted the authority yet and for the page that offers it (/trust).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time

from waitress import create_server, wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

from scorekeeper import create_app
from scorekeeper.network import tls
from scorekeeper.network.addresses import lan_addresses
from scorekeeper.server import head_checks, https
from scorekeeper.storage.db import close_for_exit
from scorekeeper.web import limits

# waitress warns "Task queue depth is 1" whenever a request waits a moment for a free thread, which
# happens in ordinary play (several phones polling); the console keeps the start-up lines and errors.
QUIET_LOGGERS = ("waitress.queue",)

# Slow or silent connections (docs/performance.md): waitress reads every socket in its one event loop
# and gives a request to a thread only once it has all arrived, so a connection that sends nothing or
# drips its headers costs a slot, not a thread. Its default of 100 slots let 100 such sockets shut every
# phone out; poll() instead of select() works past file descriptor 1024; a connection that sends
# nothing for channel_timeout seconds is closed (looked for every cleanup_interval seconds).
CONNECTIONS = {"connection_limit": 1000, "asyncore_use_poll": True, "channel_timeout": 30, "cleanup_interval": 5}
OPEN_FILES = 4096  # the soft limit on open files is raised to this (when allowed): a socket each

# How long a thread runs Python before the interpreter lets another have its lock (Python's default:
# 5 ms). waitress reads, parses and writes every connection in its one event-loop thread and hands
# each request to a worker thread; a page sent again from the page cache takes a worker some 50
# microseconds, so the event loop is what the phones wait for, and at the default each of its turns
# could wait up to 5 ms behind the workers. Measured with 50 phones looking at the score sheet at
# once (benchmarks/load.py, docs/performance.md): 1,520-1,620 pages a second at a p99 of 135-197 ms
# at 5 ms, 2,270-2,330 at 44-54 ms at 0.1 ms; the hand save unchanged (1 and 50 phones). The price:
# pages rendered afresh by many threads at once (the page cache off, 10 or 50 phones) come a quarter
# fewer a second (38-43 against 50-61), as the threads hand the lock over more often; one at a time,
# the same. Phones at a table meet the first case after every save; renders at once are few there
# (the sheet once per change, the others waiting for it; each phone's next hand form: four at a table).
SWITCH_INTERVAL = 0.0001


def _raise_open_files() -> None:
    """Let the process hold a socket for every connection both servers take (often 1024 by default)."""
    try:
        import resource  # Unix only: not on Windows
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_FILES if hard == resource.RLIM_INFINITY else min(OPEN_FILES, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (OSError, ValueError):
            pass


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
    server = https.https_server(app, args.host, args.https_port, args.threads, ready.files)
    server.prepare()  # binds now: a port in use stops the start here, with the error
    threading.Thread(target=server.serve, name="https", daemon=True).start()
    return server, ready


DRAIN = 10.0  # seconds the requests in flight get to finish when the server is stopped


def _busy(server, socket_map) -> bool:
    """Whether a request is still being answered: queued, running, or its answer not yet sent."""
    dispatcher = server.task_dispatcher
    if dispatcher.queue or dispatcher.active_count > 0:
        return True
    return any(
        isinstance(channel, HTTPChannel) and (channel.requests or channel.total_outbufs_len)
        for channel in list(socket_map.values())
    )


def serve(app, host: str, port: int, threads: int, stopping: threading.Event, on_stop=None) -> None:
    """Serve plain HTTP with waitress until ``stopping`` is set (SIGTERM), then stop taking requests,
    let those in flight finish and their answers go out (at most DRAIN seconds), call ``on_stop``
    (the HTTPS server stops the same way) and end the server's threads. Ctrl+C ends it as waitress does."""
    logging.basicConfig()  # as waitress.serve: its start-up line and errors reach the console
    # waitress refuses a body larger than the app takes, from its Content-Length, before reading it
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="scorekeeper",
        **CONNECTIONS,
        **limits.waitress_options(app),
    )
    head_checks.use_on(server, app)  # a request the app refuses from its head is answered before its body is read
    server.print_listen("Serving on http://{}:{}")
    socket_map = server.map if hasattr(server, "effective_listen") else server._map
    loop = server.asyncore.loop
    use_poll = server.adj.asyncore_use_poll
    try:
        while not stopping.is_set():
            loop(timeout=0.2, map=socket_map, use_poll=use_poll, count=1)
        for listener in [d for d in list(socket_map.values()) if isinstance(d, BaseWSGIServer)]:
            wasyncore.dispatcher.close(listener)  # no new connections; the trigger stays, for the answers
        if on_stop is not None:
            on_stop()
        deadline = time.monotonic() + DRAIN
        while _busy(server, socket_map) and time.monotonic() < deadline:
            loop(timeout=0.05, map=socket_map, use_poll=use_poll, count=1)
    except KeyboardInterrupt:
        pass
    finally:
        server.task_dispatcher.shutdown()
        wasyncore.close_all(socket_map)


def _arguments() -> argparse.Namespace:
    """The command line's choices."""
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
    return parser.parse_args()


def _print_addresses(args: argparse.Namespace, ready) -> None:
    """Where phones open the app (and, with HTTPS, where they trust this computer first)."""
    addresses = lan_addresses() or ("<this computer's address>",)
    print("Canasta score keeper is running. Open on a phone on the same network:", flush=True)
    for address in addresses:
        print(f"    http://{address}:{args.port}/", flush=True)
    if ready is not None:
        print("To install it on a phone (HTTPS), trust this computer once on the phone at:", flush=True)
        print(f"    http://{addresses[0]}:{args.port}/trust", flush=True)
        print("then open:", flush=True)
        # only names the certificate holds open without a warning
        secure = [a for a in addresses if a in ready.names] or [n for n in ready.names if n.endswith(".local")]
        for address in secure or ["localhost"]:
            print(f"    https://{address}:{args.https_port}/", flush=True)
    print(f"On this computer: http://127.0.0.1:{args.port}/   (Ctrl+C stops it)", flush=True)


def main() -> None:
    """Parse the command line and serve until stopped."""
    args = _arguments()
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    _raise_open_files()
    sys.setswitchinterval(SWITCH_INTERVAL)
    os.umask(0o077)  # whatever the app writes to instance/ (database, backups, config, keys) is private
    app = create_app()
    https, ready = _start_https(app, args) if args.https else (None, None)
    _print_addresses(args, ready)
    # a service manager stops programs with SIGTERM: the same clean end as Ctrl+C, with the requests
    # in flight answered, then the database checkpointed and closed (no -wal file left behind)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda _signum, _frame: stopping.set())
    stopped = []

    def stop_https() -> None:
        if https is not None and not stopped:
            stopped.append(True)
            https.stop()  # stops taking connections, lets its requests in flight finish

    try:
        serve(app, host=args.host, port=args.port, threads=args.threads, stopping=stopping, on_stop=stop_https)
    finally:
        stop_https()
        close_for_exit(app)


if __name__ == "__main__":
    main()
