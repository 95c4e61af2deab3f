"""benchmarks/save_cpu.py --sql rests on the statements a save really runs: traced on the production
connection, they hold each of the four any save must run once (else the figure in docs/performance.md
would compare something else), and replayed they store a hand."""

from __future__ import annotations

import sqlite3

from benchmarks import save_cpu


def test_a_saves_statements_hold_the_four_any_save_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    save = save_cpu.Save(tmp_path)
    save.request(save.prepare())  # the phone's first save registers it; the benchmark's rounds come after
    traced = save_cpu.statements_of_a_save(save)
    sql = [s.sql.strip() for s in traced]
    assert sql[0].startswith("select") and "BEGIN IMMEDIATE" in sql and sql[-1] == "COMMIT"
    inside = traced[sql.index("BEGIN IMMEDIATE") + 1 : -1]
    for start in save_cpu.LEAST:
        assert sum(s.sql.lstrip().startswith(start) for s in inside) == 1, (start, [s.sql for s in inside])
    keyed = [s for s in inside if save_cpu.KEY.search(str(s.values))]
    assert len(keyed) == 2 and all("?" in s.sql for s in keyed)  # looked up and stored, bound as a value
    db = sqlite3.connect(save.app.config["DATABASE"], isolation_level=None)
    hands = db.execute("select count(*) from hands").fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    for s in inside:
        values = save_cpu._with_key(s.values, "f" * 32)
        (db.executemany if s.many else db.execute)(s.sql, values).fetchall()
    db.execute("COMMIT")
    assert db.execute("select count(*) from hands").fetchone()[0] == hands + 1
    db.close()
