"""The section of docs/rules.md on a table's own rules (``house-values``): what they are, and every
changeable value with its default, written from ``scorekeeper/core/rulesets/values.py``. Called by
``scripts/rules_doc.py``."""

from __future__ import annotations

from typing import Any, Mapping

from scorekeeper.core import rulesets

KINDS = {"points": "points, a multiple of 5", "count": "a count", "yes_no": "yes or no", "choice": "one of"}

INTRO = [
    '<a id="house-values"></a>',
    "",
    "## A table's own rules",
    "",
    "A table that plays by its own values (natural canastas at 600, going out at 300, red threes of a side "
    "that melded nothing capped at −400, cards left in hand not counted, Garbage at 3000, a special hand added "
    "to the rest of the hand, a game of ten hands …) keeps them as a rule set of its own: under "
    "**The table's own rules** (`/house-rules`) it starts from any rule set above (and its layout), changes any "
    'of the values below, names the result ("Thursday rules") and keeps it. New games offer it beside the '
    "built-in rule sets. A game copies the values it starts with, so changing the table's rules later never "
    "changes a game already played: its **rules** link shows the values it plays with, and says so when the "
    "table's rules have changed since it began. Making and changing a table's rules is on the change log. A rule set's "
    "page passes it to another table: as a small file to download, or as a QR code a phone at the next table "
    "scans to open the import with it filled in (the file's format: docs/api.md).",
    "",
    "Every value has a stable name (the API's `values` take it: see docs/api.md), a default (the rule set's "
    "own), a kind and limits. The settings of each rule set's **House rules** are values too: one chosen on the "
    "page brings the values that go with it (the values the page showed at their defaults follow the choice: six "
    "players' red threes that count plus anyway are no longer kept minus by the sign rule the page showed; a "
    "value typed on the same page stays as typed). Refused, with "
    "the message beside the value: a value outside its limits (no negative card value or bonus), opening tiers "
    "that do not start higher one after the other or whose minimums go down, a target not above the start of "
    "the first opening tier that starts above 0, more natural and wild-card canastas to go out than canastas, "
    "opening minimums by the hand's number given both as a list and as a number times the hand, "
    "and a table where no card counts.",
    "",
    "- The red threes of a side that counts them minus cost at most the cap (0: no cap).",
    "- When cards left in hand do not count, the line *Cards left in hand* is left out of every side's score.",
    "- When a special hand adds to the rest (Modern American Canasta), the side scores the special hand plus "
    "its canastas, threes, melded cards and the rest, instead of the special hand alone.",
    "- In a game of a fixed number of hands, the game ends after that hand even if no side reached the "
    "target: the highest total wins; sides level at the top follow the tie rule.",
    "- With other card values the deck holds other totals, and a canasta needs at least the points its "
    "fewest cards are worth (seven 4s for a natural canasta): the checks follow.",
    "",
    "Rules rather than numbers:",
    "",
    "- **Red threes always minus** (`red_three_sign` `minus`): some tables never score red threes as a bonus; "
    "each side's red threes count against it, melded or not. The red-three table may also hold minus entries "
    "(one red three −50): an entry counts with the sign the rule gives it.",
    "- **Black threes left in hand** cost `black_three_in_hand` points each in any rule set (0, the default "
    "where the rules say nothing, leaves them at their card value, among the cards left in hand: in Canadian "
    "too). The score pad then asks how many, in a row of their own, and the penalty takes the place of their "
    "card value: black threes given among the cards left in hand (the API's `hand_cards`) cost it too. At "
    'their card value, and that of a 7 to 4, the pad counts them with the 7 to 4 ("7 to 4, black 3s").',
    "- **Going out without a canasta**: `canastas_to_go_out` may be 0 (Speed Canasta and other quick house "
    "games); the check that going out needs canastas then asks for none.",
    "- **Opening minimums by the hand's number** instead of the side's total: a list for hand 1, 2, 3, … "
    "(`opening_by_hand`, a club's rounds: 125, 155, 180; the last goes on for later hands) or a number times "
    "the hand's number (`opening_per_hand`, 30 × the hand). The score pad, the scoreboard's minimums and the "
    "reference page show the minimum of the next hand. Refused: a minimum above the points of the whole deck.",
    "- **A tie at the target** (`tie_rule` `went_out`): sides level at the top at or above the target; the side "
    "that went out in the last hand wins (by 0). If none of the level sides went out, they play another hand.",
    "- **Special hands beside melds** (`special_after_meld`): a side that has melded may still declare one. "
    "**With the going-out bonus** (`special_with_going_out`): the special hand adds the bonus for going out. "
    "**Adding to the rest** (`special_adds`): the special hand adds the side's canastas, red and black threes, "
    "melded cards and cards left in hand (and penalties).",
    "- **The table's own kinds** (`own_1_…` to `own_3_…`): up to three, each a kind of canasta, a special hand "
    "or an opening tier with a name and points. A kind of canasta (a wild canasta worth 1,000 in Classic, a "
    "canasta of eight 7s) gets a row on the score pad; it takes `own_1_cards` cards (the checks ask for at "
    "least that many cards' points among the melded cards, and that the canastas fit in the deck), may be of "
    "wild cards only, and counts as one of the canastas going out needs unless `own_1_goes_out` is no. A "
    "special hand is a way of going out that scores its points (alone, unless the rules above add to it) and "
    "needs no opening minimum. An opening tier starts at a total (`own_1_from`) with its minimum; the tier "
    "before ends 5 below. Refused: an own kind without a name (or with a % in it), a tier starting where "
    "another starts, a tier's minimum above the deck, a wild canasta of more wild cards than the deck holds.",
    "",
]


def _default(value: Any) -> str:
    """A default as the table shows it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value in ("", []):
        return "none"
    return f"`{value}`" if isinstance(value, str) else str(value)


def _limits(spec: rulesets.Value) -> str:
    """A value's kind and limits."""
    if spec.kind == "choice":
        return "one of " + ", ".join(f"`{c}`" for c, _ in spec.choices)
    if spec.kind == "yes_no":
        return "yes or no"
    if spec.kind == "text":
        return f"a name, at most {spec.high} characters"
    if spec.kind == "list":
        return f"a list of up to 20 minimums, each a multiple of 5 from {spec.low} to {spec.high}"
    return f"{KINDS[spec.kind]}, {spec.low} to {spec.high}"


def section(rule_sets: Mapping[str, rulesets.RuleSet]) -> list[str]:
    """The whole section: the introduction and one row per value name, with each rule set's default."""
    rows: dict[str, dict[str, Any]] = {}
    for rules in rule_sets.values():
        for spec in rulesets.values_of(rules):
            row = rows.setdefault(spec.name, {"spec": spec, "defaults": {}})
            row["defaults"].setdefault(_default(spec.default), []).append(rules.id)
    out = INTRO + ["| value | what it is | kind and limits | default |", "|---|---|---|---|"]
    for name, row in rows.items():
        spec = row["spec"]
        label = spec.label % dict(spec.label_args) if spec.label_args else spec.label
        defaults = row["defaults"]
        if len(defaults) == 1 and len(next(iter(defaults.values()))) == len(rule_sets):
            shown = next(iter(defaults))
        else:
            shown = "; ".join(f"{default} ({', '.join(ids)})" for default, ids in defaults.items())
        explanation = f"{label}. {spec.explanation}".replace("|", "/")
        out.append(f"| `{name}` | {explanation} | {_limits(spec)} | {shown} |")
    return out + [""]
