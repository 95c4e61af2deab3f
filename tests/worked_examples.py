"""Helpers for the worked examples of each rule set (``tests/test_scoring_<family>.py``).

Every expected number in those files was worked out by hand from ``docs/rules.md``
(the heading, ``docs/rules.md#<rule set> › <heading>``, is in each case's id or comment), never copied from the code's
output. A side entry
goes through the API-shaped reading: ``checks.read_hand(rulesets.configure(...), sides)`` and then
``scoring.score_side``, so the field names the app and the API take are covered too.

If the code disagrees with the rules, a case keeps the rules' value and is marked
``xfail(strict=True)`` with the reason.
"""

import pytest

from scorekeeper.core import checks, rulesets, scoring

# the rule sets of each family, by the file that holds their worked examples
FAMILIES = {
    "test_scoring_classic.py": ("classic", "classic-2p", "classic-3p"),
    "test_scoring_six.py": ("six-3x2", "six-2x3", "miller"),
    "test_scoring_vienna.py": ("vienna",),
    "test_scoring_modern.py": ("modern",),
    "test_scoring_canadian.py": ("canadian",),
    "test_scoring_austrian.py": ("austrian", "austrian-6"),
    "test_scoring_encyclopedia.py": ("encyclopedia",),
}

# docs/rules.md#classic › Opening minimum: the classic opening-minimum table with its boundaries (no 150 row), kept by
# six-3x2 (docs/rules.md#classic),
# Vienna (docs/rules.md#vienna) and the encyclopedia (docs/rules.md#encyclopedia › Opening minimum)
CLASSIC_ROWS = [
    (-1000, 15),
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (6995, 120),
    (7000, 120),
    (12000, 120),
]


def rules_of(variant_id, settings=None, target=None, layout=None):
    """The rule set configured as a game plays it."""
    return rulesets.configure(rulesets.get(variant_id), settings or {}, layout, target)


def empty_sides(rules, first):
    """The first side's entry and empty entries for the others."""
    return [first] + [{} for _ in range(rules.sides - 1)]


def breakdown(score):
    """Item -> points of a side's score, every line (0-point lines too, e.g. Modern threes with one
    canasta, "not scored"); fails unless the items are unique and add up to the score."""
    items = [line.item for line in score.breakdown]
    assert len(items) == len(set(items)), items
    assert sum(line.points for line in score.breakdown) == score.score
    return {line.item: line.points for line in score.breakdown}


def read(rules, raw, **options):
    """The side hands of an entry that the checks accept."""
    hands, problems = checks.read_hand(rules, raw, **options)
    assert problems == [], problems
    return hands


def score_of(variant_id, side, settings=None, others=None):
    """(hand score, breakdown) of the first side of a hand entry, read and checked as the API does."""
    rules = rules_of(variant_id, settings)
    raw = [side] + others if others is not None else empty_sides(rules, side)
    result = scoring.score_side(rules, read(rules, raw)[0])
    return result.score, breakdown(result)


def problems_of(variant_id, sides, settings=None):
    """The problems read_hand finds in a hand entry."""
    return checks.read_hand(rules_of(variant_id, settings), sides)[1]


def going_out_problems(variant_id, side, settings=None):
    """(side, field) of each problem of an entry whose first side goes out as given in ``side``."""
    rules = rules_of(variant_id, settings)
    return [(p.side, p.field) for p in checks.read_hand(rules, empty_sides(rules, side))[1]]


def case(id_, variant_id, side, settings, expected, items, marks=()):
    """A worked hand score: (rule set, first side's entry, settings, score, breakdown items)."""
    return pytest.param(variant_id, side, settings, expected, items, id=id_, marks=marks)


def going_out(id_, variant_id, side, refused, settings=None):
    """A going-out requirement: the side goes out normally with ``side``; refused or not."""
    return pytest.param(variant_id, side, settings, refused, id=id_)


def result_case(id_, variant_id, totals, finished, winner, margin, leads, settings=None, target=None, tie=False):
    """A game result from the totals: (finished, winner, margin, leads, tie)."""
    return pytest.param(variant_id, settings, target, totals, (finished, winner, margin, leads, tie), id=id_)


def opening_rows(section, variant_id, rows, settings=None):
    """One case per (total, minimum) row of an opening-minimum table."""
    label = f"{section} {variant_id}" + (" setting 15" if settings else "")
    return [pytest.param(variant_id, settings, t, m, id=f"{label} {t}->{m}") for t, m in rows]


def red_three_rows(rows):
    """Red threes the deck holds: (rule set, red threes of each side, refused): 6 in a 162-card deck
    and 4 in a 108-card deck (docs/rules.md#<rule set> › Card values)."""
    return [
        pytest.param(
            v,
            reds,
            refused,
            id=f"docs/rules.md#{v} › Card values: {reds}",
        )
        for v, reds, refused in rows
    ]


def red_three_sides(reds):
    """An entry in which each side holds the given red threes (and has melded, if it holds any)."""
    return [{"red_threes": n, "melded_points": 50} if n else {} for n in reds]
