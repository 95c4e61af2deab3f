"""A table's own rule set passed to another table (docs/api.md, "A rule set's file"): the file
another installation wrote (``core.rulesets.transfer``) kept here as a new table's own rule set,
checked and stored as the page's own would be (``house_rules.create``: one transaction, a name
already taken decided inside it)."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.core.rulesets import transfer
from scorekeeper.services import house_rules
from scorekeeper.services.verdicts import PROBLEMS, Verdict


def import_rule_set(db: Database, text: str, name: str | None = None, phone: str | None = None) -> Verdict:
    """Keep the rule set of a file's text: SAVED with its new id, or PROBLEMS, each naming its field
    ("name", "base", "layout", a value's own name, or the file's "document", "format", "version",
    "values"). ``name``, when given, is kept instead of the file's (a name taken here can be changed)."""
    fields, problems = transfer.read_text(text)
    if name is not None:
        fields["name"] = name
        problems = [p for p in problems if p.field != "name"]
    if problems:
        return Verdict(PROBLEMS, problems=tuple(problems))
    return house_rules.create(db, fields["name"], fields["base"], fields["layout"], fields["values"], phone)
