"""``python -m scorekeeper``: what the server command sets up before it serves."""

from __future__ import annotations

import sys
import types

from scorekeeper import __main__ as command


def test_the_server_runs_with_the_short_switch_interval(monkeypatch, tmp_path):
    """The event loop's turns wait at most SWITCH_INTERVAL behind the worker threads (see its
    comment: the score sheet served again to 50 phones at once); Python's default is 5 ms."""
    seen = {}
    arguments = types.SimpleNamespace(host="127.0.0.1", port=0, threads=1, https=False, https_port=0)
    monkeypatch.setattr(command, "_arguments", lambda: arguments)
    monkeypatch.setattr(command, "create_app", lambda: types.SimpleNamespace(config={}))
    monkeypatch.setattr(command, "_print_addresses", lambda args, ready: None)
    monkeypatch.setattr(command, "_raise_open_files", lambda: None)
    monkeypatch.setattr(command, "close_for_exit", lambda app: None)
    monkeypatch.setattr(command.os, "umask", lambda mask: 0)
    monkeypatch.setattr(command.signal, "signal", lambda *args: None)
    monkeypatch.setattr(command, "serve", lambda *args, **kwargs: seen.setdefault("interval", sys.getswitchinterval()))
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default
    try:
        command.main()
    finally:
        sys.setswitchinterval(before)
    assert abs(seen["interval"] - command.SWITCH_INTERVAL) < 1e-6 and command.SWITCH_INTERVAL < 0.005
