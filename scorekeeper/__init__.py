"""The Canasta score keeper, in layers (docs/architecture.md): ``core`` (the rules, pure),
``storage`` (the archive in SQLite), ``services`` (every change, one transaction each), ``web``
(pages, forms, API), ``network`` (this machine's names and certificates) and ``server`` (what
``python -m scorekeeper`` runs).

``create_app`` (``scorekeeper.web.app``) is importable from here, as ``flask --app scorekeeper``
expects; it is loaded only when asked for, so importing the core loads no Flask."""

from __future__ import annotations


def __getattr__(name: str):
    if name == "create_app":
        from scorekeeper.web.app import create_app  # loaded when asked for: the core stays free of Flask

        return create_app
    raise AttributeError(f"module 'scorekeeper' has no attribute {name!r}")
