"""Write docs/rules.md, the project's own rules reference, from the rule tables in scorekeeper/core/rulesets/.

Every number in the document comes from the tables the scoring uses; the prose is kept here. After a
change to a rule set, a setting or the prose, run

    .venv/bin/python scripts/rules_doc.py          # rewrites docs/rules.md
    .venv/bin/python scripts/rules_doc.py --check  # exit 1 when docs/rules.md is out of date

tests/test_docs.py fails when docs/rules.md differs from what this script writes, and checks the
document's tables against the rule sets on its own. A new rule set or setting needs its words in
INTROS / SOURCES_OF / NOTES / SETTING_NOTES below: without them this script stops with a KeyError.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Mapping

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.core import rulesets  # noqa: E402
from scripts import house_doc  # noqa: E402

DOC = ROOT / "docs" / "rules.md"

# The original sources, by name. Each rule set says which of them it follows.
SOURCES = {
    "pagat": (
        'John McLeod\'s "Canasta" page on pagat.com (<https://www.pagat.com/rummy/canasta.html>), the reference for '
        "Classic Canasta and its variants, read in three translations:"
    ),
    "de": 'the German translation, "Canasta" ("Version aktualisiert am: 14. Mai 2020");',
    "it": 'the Italian translation, "Canasta" ("Ultimo aggiornamento: 15 Febbraio 2012");',
    "et": (
        "the Estonian translation by Allan Bernard (© John McLeod, 1995–2004), which covers the general rules, "
        "Classic Canasta for four and Vienna only."
    ),
    "austrian": (
        'the Austrian rulebook "Spielregeln", an older German-language rulebook for 2 to 6 players with '
        "Hand-Canasta, penalty points and a complete Game of three Partien;"
    ),
    "encyclopedia": (
        'the encyclopedia article "Canasta" from the section "Geschicklichkeitsspiele" (games of skill), an older '
        "German article on the classic rules for 2 to 6 players, with penalties."
    ),
}

# Which sources each rule set follows, in words.
PAGAT = "John McLeod's Canasta page on pagat.com"
SOURCES_OF = {
    "classic": f"{PAGAT}, in its German, Italian and Estonian translations.",
    "classic-2p": f"{PAGAT}, in its German and Italian translations.",
    "classic-3p": f"{PAGAT}, in its German and Italian translations.",
    "six-3x2": f"{PAGAT} (the six-player version found in most books), in its German and Italian translations.",
    "six-2x3": f"{PAGAT} (the six-player version found in most books), in its German and Italian translations.",
    "miller": f"Shirley Miller's variant as {PAGAT} describes it, in its German and Italian translations.",
    "vienna": f"{PAGAT}, in its German, Italian and Estonian translations.",
    "modern": f"{PAGAT}, in its German and Italian translations.",
    "canadian": f"Barb Dejesus's rules as {PAGAT} describes them, in its German and Italian translations.",
    "austrian": 'The Austrian rulebook "Spielregeln".',
    "austrian-6": 'The Austrian rulebook "Spielregeln" (its second form for six players).',
    "encyclopedia": 'The encyclopedia article "Canasta" (section "Geschicklichkeitsspiele").',
}

# What each rule set is, in a few sentences; numbers come from the rule set (``r``).
INTROS = {
    "classic": lambda r: (
        "The standard game, as the rules were settled in North America around 1950: two fixed partnerships, "
        "partners sitting opposite each other, two packs with their jokers shuffled together. A side scores its "
        "bonuses and the cards it melded, less the cards its players still hold when the hand ends."
    ),
    "classic-2p": lambda r: (
        "Classic Canasta for two players, each playing for himself. Each player is dealt more cards and draws two "
        "at a time; going out needs more canastas than with four. Everything else scores as in the four-player game."
    ),
    "classic-3p": lambda r: (
        "Three players keep individual totals. In each hand one player plays alone against the other two, who form "
        "a partnership for that hand only: they share their melds, canastas and going out, and the cards left in "
        "both their hands count against them. The partnership's score is added to each partner's own total, but "
        "each partner scores his own red threes. If the stock runs out before anyone has taken the discard pile, "
        "each player scores alone. The partner who melds first for the partnership must meet the opening minimum "
        "of his own total; after that the other partner melds freely. Who plays alone is decided at the table (see "
        "the house rules); the hand form asks who it was."
    ),
    "six-3x2": lambda r: (
        "The six-player game described in most books: three packs with their jokers, three partnerships of two with "
        "partners sitting opposite each other. Red threes have their own values for four, five and six, and going "
        "out needs more canastas than in the four-player game."
    ),
    "six-2x3": lambda r: (
        "The same six-player rules for two teams of three, team mates sitting in alternate seats. The target is "
        "higher, and the opening-minimum table has a row more at the top."
    ),
    "miller": lambda r: (
        "Shirley Miller's rules for two teams of three: melds of wild cards (2s and jokers) are allowed, a "
        "completed one is a canasta with a large bonus and one left unfinished at the end of the hand costs "
        'points; going out needs more canastas, some of them natural ("clean"). Everything else is as in the '
        "six-player game for two teams of three."
    ),
    "vienna": lambda r: (
        "Vienna Canasta (Wiener Canasta) is Classic Canasta with a few changes. Red threes count plus only for a "
        "side that has a canasta: a plain meld is not enough. No meld may hold more wild cards than natural ones. "
        "Going out concealed has two forms: on the partner's canasta (Verdeckt Ausmachen), when the player has no "
        "complete canasta of his own (the partner's canasta allows going out), and Hand-Canasta, when the hand "
        "that goes out holds a complete canasta. A player who takes the discard pile on the last turn scores only "
        "the ordinary bonus for going out."
    ),
    "modern": lambda r: (
        "Modern American Canasta: four players in two partnerships. Going out needs canastas and always ends with "
        "a discard, except with a special hand. What a team scores depends on how many canastas it has: with none, "
        "its melded cards and its threes count against it; with one, its threes count nothing; with two or more, "
        "everything counts for it. A team that goes out with a special hand (Straight, Pairs, Garbage) scores only "
        "the special hand. Penalties for unfinished melds of aces, 7s or wild cards, and for each player left "
        "holding three or more aces or 7s, apply in every case except a special hand. A team may also open with a "
        '"splash": a natural or wild canasta laid entirely from the hand, which needs no minimum.'
    ),
    "canadian": lambda r: (
        "Canadian Canasta for four players in partnerships, with three packs and their jokers. Going out needs "
        "natural canastas and a wild-card canasta. Red threes count a flat value each. Black threes may be melded "
        "only all together by the player going out; each one left in a hand costs a penalty. The team that did not "
        "deal earns a bonus when the player who cuts lifts exactly 60 cards."
    ),
    "austrian": lambda r: (
        'The Austrian rulebook "Spielregeln" for two to six players. Red threes count plus only for a side that has '
        "a canasta. Hand-Canasta: a player who forms a canasta in his hand and lays out the whole hand at once goes "
        "out without meeting the opening minimum. Going out in one go (glatt ausmachen): with four or more players, "
        "when the partner "
        "already has a canasta, laying out the whole hand at once earns more than ordinary going out. Offences cost "
        "penalty points. Two or three players each play for themselves (there is no temporary partnership); five "
        "play a pair against three who take turns sitting out; six play three against three with two of each team "
        "playing each hand. Four players can play a complete Game of three Partien with changing partnerships: "
        "each finished Partie adds its margin to each winner's balance and takes it from each loser's."
    ),
    "austrian-6": lambda r: (
        "The rulebook's second form for six: three partnerships of two, all six playing, with three packs and their "
        "jokers. Going out needs more canastas, and five and six red threes have their own values. Otherwise as the "
        "Austrian rulebook."
    ),
    "encyclopedia": lambda r: (
        "The encyclopedia article's rules for two to six players: two or three players each play for themselves, "
        "four play two partnerships, five a pair against three who take turns sitting out, six either two teams of "
        "three or three partnerships of two; always with two packs and their jokers. The scoring is classic, with "
        "two differences: a first meld must reach the opening minimum even when the player goes out concealed, and "
        "offences cost penalty points. Red threes count plus when the side made its first meld before the other "
        "side went out, which comes to the same as having melded."
    ),
}

# Points where the sources say nothing or disagree, and what the app does (numbers from ``r``).
NOTES = {
    "classic": lambda r: [],
    "classic-2p": lambda r: [],
    "classic-3p": lambda r: [
        "The sources give no single margin for three players; the app shows the winner's lead over each other player.",
    ],
    "six-3x2": lambda r: [
        "The sources say red threes keep the classic values up to three and give new values for four, five and six; "
        "they do not repeat whether a team that has not melded counts them minus. The app keeps the classic rule "
        "(a house rule can change it).",
        "For three teams the sources say only that the game ends; that the highest total wins, by its lead over "
        "each other team, is the app's reading.",
    ],
    "six-2x3": lambda r: [
        "Red threes of a team that has not melded count minus, as in the three-team game (a house rule).",
    ],
    "miller": lambda r: [
        "Everything the variant does not mention (red threes, the opening table, the target) is taken from the "
        "six-player game for two teams of three.",
    ],
    "vienna": lambda r: [
        "Vienna does not say what red threes are worth to a side that has melded but has no canasta; the Austrian "
        "rulebook, which has the same rule, counts them minus, and so does the app (a house rule can count them as "
        "nothing).",
        "Whether the Hand-Canasta bonus replaces the bonus for going out or comes on top of it is not clear from the "
        "sources; the app replaces it by default (a house rule).",
    ],
    "modern": lambda r: [
        "When a team has an unfinished meld of 7s (or pure aces) and one of its players also holds three or more of "
        "them, both penalties apply; the sources' combined figure is that sum, not an extra penalty.",
        "The penalty for holding three or more aces or 7s is per player: two players of the team holding them cost "
        "it twice.",
        "A three kept in the hand for a Straight attempt counts as if it had been melded; any other three left in "
        "the hand costs its card value.",
    ],
    "canadian": lambda r: [
        "The rules do not name a bonus for going out, say nothing of red threes of a team that has not melded or of "
        "the opening minimum for a negative total, and do not say whether a black three left in hand costs its "
        "penalty instead of or on top of its card value. The app takes the readings below as defaults, each a house "
        "rule.",
    ],
    "austrian": lambda r: [
        "The rulebook's opening table starts at a total of 0 and it says a first meld is worth at least the lowest "
        "row; the app uses that row for a negative total too (a house rule).",
        "Penalty points are deducted from the hand score of the side that committed the offence; the offences that "
        "cost no points (looking at the next card, showing cards and the like) are not listed.",
        "The rulebook does not say who wins when both sides reach the target in the same hand; the higher total wins.",
    ],
    "austrian-6": lambda r: [
        "The rulebook gives five and six red threes but not four in this form; the app takes the value of pagat's "
        "six-player rules, with the rulebook's general value for all four as a house rule.",
    ],
    "encyclopedia": lambda r: [
        "The article does not say what happens when the stock runs out, nor who wins when both sides reach the "
        "target in the same hand; the app scores as the classic rules do (no bonus for going out; the higher total "
        "wins).",
    ],
}

# Why each house rule exists, in a sentence or two.
SETTING_NOTES = {
    "tie_rule": (
        "None of the sources says what happens when the sides finish exactly level at or above the target. By "
        "default the game goes on with another hand; a table can instead call the game drawn, or give the game "
        "to the side that went out in the last hand."
    ),
    "wild_melds": (
        "pagat lists melds of wild cards only (2s and jokers in any mix) among the optional classic rules. Where "
        "they are played, a completed one is a wild-card canasta and one left unfinished at the end of the hand "
        "costs points."
    ),
    "lone_trigger": (
        "The two translations word this differently: the Italian one says the first player to take the discard pile "
        "plays alone, or the player who goes out before anyone has taken it; the German one says the player who "
        "melds before anyone has taken it. The default follows the Italian wording. The table decides who plays "
        "alone; the app shows the rule and asks."
    ),
    "lone_red_sign": (
        "The partners share their melds but not their red threes, and pagat does not say whose melding decides "
        "whether a partner's red threes count plus or minus."
    ),
    "lone_all_four": (
        "Each partner scores his own red threes, so the bonus for all four could need one player to hold all four "
        "(the default) or count the two partners' threes together."
    ),
    "red_three_negative": (
        "The six-player rules give new values for four, five and six red threes but do not repeat the rule that "
        "they count minus for a team that has not melded; by default that rule stays."
    ),
    "hand_canasta_adds": (
        "The sources give the Hand-Canasta bonus without saying whether it replaces the bonus for going out (as "
        "the bonus for concealed going out on the partner's canasta does) or comes on top of it; the Estonian "
        'translation says "in addition".'
    ),
    "red_three_melded_no_canasta": (
        "Red threes count plus only with a canasta. For a side that has melded but has no canasta, the Austrian "
        "rulebook counts them minus (the default); some tables count them as nothing."
    ),
    "negative_minimum": (
        "The source's opening table starts at a total of 0. By default a negative total needs the minimum of the "
        "lowest row; the alternative is the classic rules' small minimum for negative totals."
    ),
    "four_red_threes": (
        "The rulebook values five and six red threes in this form but not four: by default they count as in "
        "pagat's six-player rules, as an alternative as the rulebook's general value for all four."
    ),
    "special_3500": "pagat mentions that some tables score Pairs and Garbage higher.",
    "no_out_with_incomplete": (
        "pagat mentions that some tables do not let a team go out while it has an unfinished meld of 7s or of pure "
        "aces."
    ),
    "red_three_sign": (
        "The Canadian rules give red threes a flat value and do not say whether they count minus for a team that "
        "has not melded; by default they always count plus."
    ),
    "going_out_bonus": "The Canadian rules do not name a bonus for going out; by default the classic bonus applies.",
    "black_three_in_hand": (
        "A black three left in hand costs a penalty; the rules do not say whether that replaces its card value "
        "(the default) or comes on top of it."
    ),
    "minimum_on_concealed": (
        "The article says that even a canasta laid as the first meld must reach the minimum, so by default the "
        "minimum applies to a concealed going out too; the classic rules waive it."
    ),
}

# The specification's tags for the sources, as some labels in the tables still carry them: shown by name.
SOURCE_TAGS = {
    "[000]": "the German translation",
    "[001]": "the Italian translation",
    "[002]": "the Estonian translation",
    "[003]": "the Austrian rulebook",
    "[004]": "the encyclopedia article",
}

RED_THREE_SIGNS = {
    rulesets.RedThreeSign.MELDED: (
        "Red threes count plus for a side that has melded something, minus for a side that has melded nothing."
    ),
    rulesets.RedThreeSign.CANASTA: (
        "Red threes count plus only for a side that has a canasta; a side without one counts them minus."
    ),
    rulesets.RedThreeSign.CANASTA_COUNT: (
        "Red and black threes are each looked up in the table and the two added: a team with no canasta counts them "
        "minus, with one canasta not at all, with two or more plus."
    ),
    rulesets.RedThreeSign.ALWAYS: "Red threes always count plus.",
}
# the "canasta" sign with the house rule that a side that melded but has no canasta counts them as nothing
CANASTA_OR_NOTHING = (
    "Red threes count plus only for a side that has a canasta; a side that has melded but has no canasta counts "
    "them as nothing, a side that has melded nothing counts them minus."
)


def plain(text: str) -> str:
    """A label with the sources named instead of tagged."""
    for tag, name in SOURCE_TAGS.items():
        text = text.replace(tag, name)
    return text


def anchor(rules: rulesets.RuleSet) -> str:
    """The rule set's anchor in the document."""
    return rules.id


def points(value: int) -> str:
    """A number as the tables show it."""
    return str(value)


def minus(value: int) -> str:
    """A deduction."""
    return f"−{value}"


def cards_in_deck(rules: rulesets.RuleSet) -> int:
    """All cards of the deck, red threes included."""
    return sum(rules.cards_in_deck.values()) + rules.red_threes_in_deck


def choice_label(setting: rulesets.Setting, value: Any) -> str:
    """The label of one of a setting's values."""
    return plain(next(label for choice, label in setting.choices if choice == value))


def canasta_rule(rules: rulesets.RuleSet) -> str:
    """What going out needs, in a sentence."""
    n = rules.canastas_to_go_out
    text = f"Going out needs **{n}** completed canasta{'s' if n != 1 else ''}"
    parts = []
    if rules.natural_canastas_to_go_out:
        parts.append(f"**{rules.natural_canastas_to_go_out}** of them natural")
    if rules.wild_canastas_to_go_out:
        parts.append(f"**{rules.wild_canastas_to_go_out}** of them wild-card")
    if parts:
        text += ", " + " and ".join(parts)
    if rules.lone_player or any(layout.side_size > 1 for layout in rules.layouts):
        text += " (partners count the canastas of their side, whoever laid them)"
    return text + ". A canasta completed on the going-out turn counts."


def table(header: tuple[str, ...], rows: list[tuple[str, ...]], numeric: tuple[int, ...] = ()) -> list[str]:
    """A Markdown table."""
    align = ["---:" if i in numeric else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def rule_set_section(rules: rulesets.RuleSet) -> list[str]:
    """One rule set, every number from its table (defaults applied)."""
    base = rules
    rules = rulesets.configure(base)
    out = [f'<a id="{anchor(base)}"></a>', "", f"## {base.name}", ""]
    out += [f"*Rule set `{base.id}`.* {base.summary}", ""]
    out += [INTROS[base.id](rules), ""]
    out += [f"Source: {SOURCES_OF[base.id]}", ""]

    out += ["**Who plays:**", ""]
    out += [f"- {layout.label}" for layout in base.layouts]
    if base.partie_layouts and any(layout.players == 4 for layout in base.layouts):
        out += [
            "- Four players can also play a complete Game: "
            + "; ".join(["Partie 1: seats 1 & 3 against 2 & 4"] + [layout.label for layout in base.partie_layouts])
            + " (the players entered as North, East, South, West)."
        ]
    out.append("")

    out += section_card_values(base, rules)
    out += section_canastas(base, rules)
    out += section_threes(base, rules)
    out += section_going_out(base, rules)
    out += section_penalties(base, rules)
    out += section_opening(base, rules)
    out += section_end_of_game(base, rules)
    out += section_unclear(base, rules)
    out += section_house_rules(base, rules)
    return out


def section_card_values(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The card values and the deck."""
    out: list[str] = []
    out += ["### Card values", ""]
    rows = [
        (label, points(rules.card_values[key]), points(rules.cards_in_deck[key])) for key, label in rulesets.CARD_GROUPS
    ]
    rows.append(("Red threes", "bonus only", points(rules.red_threes_in_deck)))
    out += table(("Cards", "Points each", "In the deck"), rows, numeric=(1, 2))
    extras = [f"The deck has **{cards_in_deck(rules)}** cards."]
    if tuple(rules.melded_card_groups) != rulesets.CARD_GROUP_KEYS:
        extras.append("Threes are not counted among the melded cards: they score through the threes table below.")
    if rules.black_three_in_hand:
        extras.append(
            f"A black three left in a hand costs **{rules.black_three_in_hand}**, not its card value (see the "
            "penalties)."
        )
    elif rules.black_threes_with_low_in_hand:
        extras.append(
            "A black three left in a hand counts against the side at its card value, like any other card: as a"
            " 7 to 4 does, so the score pad counts the black threes left in a hand with the 7 to 4, in one row."
        )
    elif "black_threes" in rules.hand_card_groups:
        extras.append("A three left in a hand counts against the side at its card value, like any other card.")
    out += ["", " ".join(extras), ""]
    return out


def section_canastas(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The canasta bonuses."""
    out: list[str] = []
    out += [
        "### Canastas",
        "",
        "A canasta is a meld of at least seven cards. Each completed canasta earns its bonus:",
        "",
    ]
    out += table(("Canasta", "Bonus each"), [(kind.label, points(kind.bonus)) for kind in rules.canasta_kinds], (1,))
    out.append("")
    return out


def section_threes(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The threes table and when threes count plus or minus."""
    out: list[str] = []
    out += ["### Red and black threes", ""]
    header = ("Threes", "Red threes") + (("Black threes",) if rules.black_three_values else ())
    rows = []
    for n in range(1, len(rules.red_three_values)):
        row = (str(n), points(rules.red_three_values[n]))
        if rules.black_three_values:
            row += (points(rules.black_three_values[n]) if n < len(rules.black_three_values) else "",)
        rows.append(row)
    out += table(header, rows, numeric=tuple(range(1, len(header))))
    out.append("")
    if rules.red_three_sign == rulesets.RedThreeSign.CANASTA and rules.red_three_melded_no_canasta == 0:
        out += [CANASTA_OR_NOTHING, ""]
    else:
        out += [RED_THREE_SIGNS[rules.red_three_sign], ""]
    return out


def section_going_out(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The ways of going out and what going out needs."""
    out: list[str] = []
    out += ["### Going out", ""]
    rows = []
    for g in rules.going_out:
        notes = []
        if len(g.lines) > 1:
            notes.append(" + ".join(f"{label} {value}" for _item, label, value in g.lines))
        if g.special:
            notes.append("a special hand: the team scores only this")
        if g.waives_minimum:
            notes.append("no opening minimum")
        if g.partner:
            notes.append("only with a partner who already has a canasta")
        rows.append((g.label, points(g.bonus), "; ".join(notes)))
    out += table(("Way of going out", "Bonus", "Notes"), rows, numeric=(1,))
    out += ["", canasta_rule(rules)]
    if rules.exact_cut_bonus:
        out += ["", f"Exact cut: the team that did not deal scores **{rules.exact_cut_bonus}** when the cut is exact."]
    out += [
        "",
        "When the stock runs out and nobody has gone out, the hand ends and nobody scores a bonus for going out.",
    ]
    out.append("")
    return out


def section_penalties(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The penalties."""
    out: list[str] = []
    out += ["### Penalties", ""]
    rows = [(d.label, minus(d.points)) for d in rules.incomplete_melds]
    rows += [(f"{d.label}, each player (at most {d.max_count})", minus(d.points)) for d in rules.holding_penalties]
    rows += [(d.label, minus(d.points)) for d in rules.penalty_catalogue]
    if rules.black_three_in_hand:
        rows.append(("Black three left in a hand, each", minus(rules.black_three_in_hand)))
    if rows:
        out += table(("Penalty", "Points"), rows, (1,))
        out.append("")
        if rules.incomplete_melds:
            out += ["An unfinished meld is one left with fewer than seven cards when the hand ends.", ""]
    if rules.melded_minus_without_canasta:
        out += ["A team without a canasta counts its melded cards as minus points.", ""]
    out += [
        "The cards left in the hands of a side's players always count against it. Penalty points agreed at the table "
        'can be entered with any hand ("Other penalty points").',
        "",
    ]
    return out


def section_opening(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The opening table."""
    out: list[str] = []
    out += ["### Opening minimum", ""]
    out += [
        "The first meld a side makes in a hand must be worth at least this many card points, by the side's total "
        "at the start of the hand. Bonuses do not count towards it.",
        "",
    ]
    out += table(
        ("Side's total at the start of the hand", "Minimum"),
        [(row.label, points(row.minimum)) for row in rules.opening_minimums],
        (1,),
    )
    out.append("")
    waived = [g.label for g in rules.going_out if g.waives_minimum and not g.special]
    if rules.minimum_on_concealed:
        out += ["The minimum applies to a concealed going out too.", ""]
    elif waived:
        out += [
            f"These ways of going out need no opening minimum, even as the side's first meld: {', '.join(waived)}.",
            "",
        ]
    if rules.splash_opening:
        out += ["No minimum applies to a splash (a natural or wild canasta laid entirely from the hand).", ""]
    if rules.lone_player:
        out += ["Each player's own total decides his minimum.", ""]
    return out


def section_end_of_game(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The target and who wins."""
    out: list[str] = []
    out += ["### End of the game", ""]
    out += [
        f"The target is **{rules.target}**. The game ends at the end of a hand in which a side reaches it; "
        + (
            "the highest total wins, by its lead over each other side. "
            if rules.sides > 2
            else "the higher total wins, by the difference. "
        )
        + (
            "If the sides are exactly level at the top, another hand is played."
            if rules.tie_rule == rulesets.TieRule.PLAY_ON
            else "If the sides are exactly level at the top, the game ends drawn."
        )
        + " A game can also be started with another target.",
        "",
    ]
    return out


def section_unclear(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """Where the sources are silent or unclear."""
    out: list[str] = []
    notes = NOTES[base.id](rules)
    if notes:
        out += ["### Where the sources are silent or unclear", ""]
        out += [f"- {note}" for note in notes]
        out.append("")
    return out


def section_house_rules(base: rulesets.RuleSet, rules: rulesets.RuleSet) -> list[str]:
    """The house rules of the rule set."""
    out: list[str] = []
    out += ["### House rules", ""]
    out += table(
        ("House rule", "Choices", "Default"),
        [
            (
                plain(s.label),
                " · ".join(plain(label) for _value, label in s.choices),
                choice_label(s, s.default),
            )
            for s in base.settings
        ],
    )
    out.append("")
    out += [f"- *{plain(s.label)}*: {SETTING_NOTES[s.key]}" for s in base.settings]
    out.append("")
    return out


def render(rule_sets: Mapping[str, rulesets.RuleSet] | None = None) -> str:
    """The whole document."""
    rule_sets = rulesets.RULE_SETS if rule_sets is None else rule_sets
    out = [
        "<!-- Written by scripts/rules_doc.py from scorekeeper/core/rulesets/: change the script, then run",
        "     `.venv/bin/python scripts/rules_doc.py`. tests/test_docs.py fails when this file is out of date. -->",
        "",
        "# The rules the score keeper uses",
        "",
        "This is the score keeper's own reference for every rule set it offers: what each card is worth, the "
        "bonuses, the penalties, the opening minimums, what it takes to go out, when the game ends, and the house "
        "rules a game can change. The numbers are the ones the app scores with: this page is written from the same "
        "tables, and the app shows each rule set's page under **Rules and tables** (`/rules/<id>`).",
        "",
        "## Sources",
        "",
        "The rules come from these published texts; where they are silent or disagree, each rule set says what "
        "the app does, and most of those points are house rules a game can change.",
        "",
        f"- {SOURCES['pagat']}",
        f"  - {SOURCES['de']}",
        f"  - {SOURCES['it']}",
        f"  - {SOURCES['et']}",
        f"- {SOURCES['austrian']}",
        f"- {SOURCES['encyclopedia']}",
        "",
        "## How a hand is scored",
        "",
        "- Each side scores, for the hand, its bonuses (canastas, red threes, going out) plus the points of all the "
        "cards it has melded on the table (canastas included), minus the points of the cards its players still "
        "hold. A hand score can be negative, and so can a total.",
        "- A hand ends when a player goes out, or when the stock runs out. Only the side that went out gets a bonus "
        "for going out.",
        "- Red threes are never played as cards: they are laid out and score as a bonus, plus or minus as each rule "
        "set says.",
        "- Every card value, bonus and penalty is a multiple of 5, so every score is too; that is why the opening "
        "table's rows end at 1495, 2995 and so on.",
        "- The opening minimum depends on the side's total at the start of the hand; only the cards of the first "
        "meld count towards it, never bonuses.",
        "- The game ends at the end of a hand, never in the middle of one.",
        "",
        "## Rule sets",
        "",
    ]
    out += [f"- [{rules.name}](#{anchor(rules)})" for rules in rule_sets.values()]
    out.append("")
    out.append("- [A table's own rules](#house-values)")
    out.append("")
    for rules in rule_sets.values():
        out += rule_set_section(rules)
    out += house_doc.section(rule_sets)
    while out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write docs/rules.md, or with --check say whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/rules.md is out of date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print("docs/rules.md is out of date: run .venv/bin/python scripts/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
