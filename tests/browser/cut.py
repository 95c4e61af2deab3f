"""A TCP proxy in front of the server that a test stops and starts: a truer cut of the connection
than a browser's offline switch (the browser still thinks it is online)."""

from __future__ import annotations

import socket
import struct
import threading


def _reset(sock: socket.socket) -> None:
    """Cut a connection now: shut down (which also wakes the thread reading it), then closed with a
    reset (SO_LINGER 0)."""
    for step in (
        lambda: sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)),
        lambda: sock.shutdown(socket.SHUT_RDWR),
        sock.close,
    ):
        try:
            step()
        except OSError:
            pass


class Cut:
    """A TCP proxy from ``self.port`` to the server: ``stop()`` cuts every connection and refuses new
    ones, ``start()`` listens again on the same port, ``swallow = True`` lets requests reach the server
    but cuts each connection as soon as the server answers (the answer is lost)."""

    def __init__(self, upstream_port: int, host: str = "127.0.0.1") -> None:
        self.upstream = ("127.0.0.1", upstream_port)
        self.host = host  # where the browser connects: 127.0.0.1, or this machine's network address
        probe = socket.socket()
        probe.bind((host, 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        self.listener: socket.socket | None = None
        self.swallow = False
        self.start()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            try:
                listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
            except OSError:
                pass
            listener.close()
        with self.lock:
            sockets, self.sockets = list(self.sockets), set()
        for sock in sockets:
            _reset(sock)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=10)
                server.settimeout(None)
            except OSError:
                _reset(client)
                continue
            with self.lock:
                if self.listener is not listener:  # cut meanwhile
                    _reset(client)
                    _reset(server)
                    continue
                self.sockets |= {client, server}
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, answer: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data or (answer and self.swallow):
                    break
                target.sendall(data)
        except OSError:
            pass
        with self.lock:
            self.sockets.discard(source)
            self.sockets.discard(target)
        _reset(source)
        _reset(target)
