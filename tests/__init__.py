"""The test suite (a package, imported before its conftest.py and its test modules)."""

import sys

# pytest keeps each test module with its assertions rewritten in __pycache__, and Python the app's
# modules compiled, unless the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE, set on
# some machines and containers): then every process of every run rewrites the 70 test modules again,
# 3.8 of the 5.0 s each worker takes to collect the quick loop (measured 2026-11-28). The tests keep
# the cache as Python and pytest do by default (the app's modules a test process imports are kept
# compiled in __pycache__ too; the app run by itself follows the environment as before).
sys.dont_write_bytecode = False
