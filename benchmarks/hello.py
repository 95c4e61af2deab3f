"""The baseline: a minimal Flask app served exactly like the score keeper (waitress, same threads).

.venv/bin/python benchmarks/hello.py --port 8101
"""

from __future__ import annotations

import argparse

from flask import Flask, redirect, request
from waitress import serve

app = Flask(__name__)


@app.get("/")
def hello():
    """Hello, World!"""
    return "Hello, World!"


@app.post("/")
def form():
    """Read a posted form and redirect, like a saved hand (without any of its work)."""
    return redirect("/?n=" + str(len(request.form)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8101)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    serve(app, host="127.0.0.1", port=args.port, threads=args.threads, ident="hello")
