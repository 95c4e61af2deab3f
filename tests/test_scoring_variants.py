"""Worked examples for every other rule set, computed by hand from the spec.

Each case is an API-shaped side entry read by checks.read_hand, so the field names the app and
the API use are tested too. Sections (§) refer to shared/rules/scoring-spec.md.
"""

import pytest

from scorekeeper import checks, scoring, variants


def rules_of(variant, settings=None, layout=None, target=None):
    """The configured rule set."""
    return variants.configure(variants.get(variant), settings or {}, layout, target)


def score(variant, side, settings=None, layout=None, lone=None, others=None):
    """The first side's hand score and breakdown items, the other sides empty unless given."""
    rules = rules_of(variant, settings, layout)
    sides = [side] + (others or [{} for _ in range(rules.sides - 1)])
    read, problems = checks.read_hand(rules, sides, lone=lone)
    assert problems == [], problems
    result = scoring.score_hand(rules, read, lone)[0]
    assert sum(line.points for line in result.breakdown) == result.score
    return result.score, {line.item: line.points for line in result.breakdown}


CASES = [
    # §6 six players: red threes 4 → 400, 5 → 1000, 6 → 1200, minus when not melded
    ("six-3x2", {"red_threes": 4, "melded_points": 100}, None, 500, {"red_threes": 400, "melded_cards": 100}),
    ("six-3x2", {"red_threes": 5, "melded_points": 100}, None, 1100, {"red_threes": 1000, "melded_cards": 100}),
    ("six-2x3", {"red_threes": 6, "melded_points": 100}, None, 1300, {"red_threes": 1200, "melded_cards": 100}),
    ("six-2x3", {"red_threes": 5, "hand_points": 40}, None, -1040, {"red_threes": -1000, "cards_in_hand": -40}),
    ("six-2x3", {"red_threes": 3}, {"red_three_negative": False}, 300, {"red_threes": 300}),
    (
        "six-3x2",
        {"went_out": "concealed", "natural_canastas": 2, "melded_points": 300},
        None,
        1500,
        {"going_out": 100, "concealed": 100, "natural_canastas": 1000, "melded_cards": 300},
    ),
    (
        "six-3x2",
        {"wild_canastas": 1, "incomplete_wild": 0, "melded_points": 200},
        {"wild_melds": True},
        2200,
        {"wild_canastas": 2000, "melded_cards": 200},
    ),  # §3 wild-card canasta 2000
    (
        "classic",
        {"incomplete_wild": 1, "melded_points": 100},
        {"wild_melds": True},
        -900,
        {"incomplete_wild": -1000, "melded_cards": 100},
    ),  # §3 unfinished wild meld −1000
    # §6 Miller: wild canasta +2000, unfinished wild meld −2000
    (
        "miller",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 500},
        None,
        3600,
        {"going_out": 100, "natural_canastas": 1000, "wild_canastas": 2000, "melded_cards": 500},
    ),
    (
        "miller",
        {"incomplete_wild": 1, "melded_points": 150},
        None,
        -1850,
        {"incomplete_wild": -2000, "melded_cards": 150},
    ),
    # §7 Vienna: red threes plus only with a canasta; Hand-Canasta 1000; Verdeckt 200
    (
        "vienna",
        {"red_threes": 2, "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"red_threes": 200, "natural_canastas": 500, "melded_cards": 100},
    ),
    ("vienna", {"red_threes": 2, "melded_points": 100}, None, -100, {"red_threes": -200, "melded_cards": 100}),
    (
        "vienna",
        {"red_threes": 2, "melded_points": 100},
        {"red_three_melded_no_canasta": 0},
        100,
        {"red_threes": 0, "melded_cards": 100},
    ),
    (
        "vienna",
        {"red_threes": 4, "hand_points": 10},
        {"red_three_melded_no_canasta": 0},
        -810,
        {"red_threes": -800, "cards_in_hand": -10},
    ),  # no meld at all: still minus
    (
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        None,
        1535,
        {"hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    (
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        {"hand_canasta_adds": True},
        1635,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    (
        "vienna",
        {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 80},
        None,
        580,
        {"verdeckt": 200, "mixed_canastas": 300, "melded_cards": 80},
    ),
    # §8.5 Modern: canasta kinds
    (
        "modern",
        {"mixed_canastas": 1, "natural_canastas": 1, "melded_points": 200},
        None,
        1000,
        {"mixed_canastas": 300, "natural_canastas": 500, "melded_cards": 200},
    ),
    (
        "modern",
        {"natural_aces_sevens_canastas": 1, "twos_canastas": 1, "melded_points": 280},
        None,
        5780,
        {"natural_aces_sevens_canastas": 2500, "twos_canastas": 3000, "melded_cards": 280},
    ),
    (
        "modern",
        {"jokers_canastas": 1, "wild_canastas": 1, "melded_points": 430},
        None,
        4930,
        {"jokers_canastas": 2500, "wild_canastas": 2000, "melded_cards": 430},
    ),
    # element 2 penalties, in every column
    (
        "modern",
        {"incomplete_aces": 1, "melded_points": 60},
        None,
        -2560,
        {"incomplete_aces": -2500, "melded_cards": -60},
    ),
    (
        "modern",
        {"incomplete_sevens": 1, "natural_canastas": 1, "melded_points": 50},
        None,
        -1950,
        {"incomplete_sevens": -2500, "natural_canastas": 500, "melded_cards": 50},
    ),
    (
        "modern",
        {"incomplete_wild": 1, "mixed_canastas": 2, "melded_points": 200},
        None,
        -1200,
        {"incomplete_wild": -2000, "mixed_canastas": 600, "melded_cards": 200},
    ),
    (
        "modern",
        {"holding_aces": 2, "hand_points": 120},
        None,
        -3120,
        {"holding_aces": -3000, "cards_in_hand": -120},
    ),  # D4
    (
        "modern",
        {"incomplete_sevens": 1, "holding_sevens": 1, "melded_points": 15, "hand_points": 15},
        None,
        -4030,
        {"incomplete_sevens": -2500, "holding_sevens": -1500, "melded_cards": -15, "cards_in_hand": -15},
    ),  # D5: 4000 in total
    # element 3 threes: 0 canastas −, 1 canasta 0, 2 or more +
    (
        "modern",
        {"red_threes": 1, "black_threes": 1, "melded_points": 60},
        None,
        -260,
        {"red_threes": -100, "black_threes": -100, "melded_cards": -60},
    ),
    (
        "modern",
        {"red_threes": 4, "black_threes": 2, "natural_canastas": 1, "melded_points": 60},
        None,
        560,
        {"red_threes": 0, "black_threes": 0, "natural_canastas": 500, "melded_cards": 60},
    ),
    (
        "modern",
        {"red_threes": 3, "black_threes": 4, "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 120},
        None,
        2420,
        {"red_threes": 500, "black_threes": 1000, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 120},
    ),
    (
        "modern",
        {"red_threes": 2, "black_threes": 3, "natural_canastas": 2, "melded_points": 100},
        None,
        1900,
        {"red_threes": 300, "black_threes": 500, "natural_canastas": 1000, "melded_cards": 100},
    ),
    # element 6 special hands: only their value
    ("modern", {"went_out": "straight"}, None, 3000, {"straight": 3000}),
    ("modern", {"went_out": "pairs"}, None, 2500, {"pairs": 2500}),
    ("modern", {"went_out": "pairs_wild"}, None, 2000, {"pairs_wild": 2000}),
    ("modern", {"went_out": "garbage"}, None, 2000, {"garbage": 2000}),
    ("modern", {"went_out": "pairs"}, {"special_3500": True}, 3500, {"pairs": 3500}),
    ("modern", {"went_out": "garbage", "red_threes": 2}, {"special_3500": True}, 3500, {"garbage": 3500}),
    # §9 Canadian
    (
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        None,
        1400,
        {"going_out": 100, "natural_canastas": 600, "wild_canastas": 300, "melded_cards": 400},
    ),
    (
        "canadian",
        {"mixed_canastas": 2, "red_threes": 4, "melded_points": 150},
        None,
        1350,
        {"mixed_canastas": 400, "red_threes": 800, "melded_cards": 150},
    ),  # 200 each, no all-four bonus
    (
        "canadian",
        {"red_threes": 2, "hand_points": 30},
        None,
        370,
        {"red_threes": 400, "cards_in_hand": -30},
    ),  # no sign rule
    (
        "canadian",
        {"red_threes": 2, "hand_points": 30},
        {"red_three_sign": "melded"},
        -430,
        {"red_threes": -400, "cards_in_hand": -30},
    ),
    (
        "canadian",
        {"melded_points": 100, "black_threes_in_hand": 3, "exact_cut": True},
        None,
        -100,
        {"melded_cards": 100, "black_threes_in_hand": -300, "exact_cut": 100},
    ),
    (
        "canadian",
        {"melded_points": 100, "black_threes_in_hand": 1},
        {"black_three_in_hand": 105},
        -5,
        {"melded_cards": 100, "black_threes_in_hand": -105},
    ),
    (
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        {"going_out_bonus": 0},
        1300,
        {"natural_canastas": 600, "wild_canastas": 300, "melded_cards": 400},
    ),
    # §10.5 Austrian rulebook
    (
        "austrian",
        {"went_out": "glatt", "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"going_out": 100, "glatt": 100, "natural_canastas": 500, "melded_cards": 100},
    ),
    (
        "austrian",
        {"went_out": "hand_canasta", "mixed_canastas": 1, "melded_points": 90},
        None,
        1390,
        {"hand_canasta": 1000, "mixed_canastas": 300, "melded_cards": 90},
    ),
    (
        "austrian",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    ("austrian", {"red_threes": 1, "melded_points": 90}, None, -10, {"red_threes": -100, "melded_cards": 90}),  # D11
    (
        "austrian",
        {
            "melded_points": 300,
            "offence_minimum_failed": 1,
            "offence_pile_before_meld": 1,
            "offence_drew_out_of_turn": 1,
            "offence_drew_out_of_turn_kept": 1,
            "offence_pile_out_of_turn": 2,
        },
        None,
        -450,
        {
            "melded_cards": 300,
            "offence_minimum_failed": -50,
            "offence_pile_before_meld": -200,
            "offence_drew_out_of_turn": -100,
            "offence_drew_out_of_turn_kept": -200,
            "offence_pile_out_of_turn": -200,
        },
    ),
    (
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        935,
        {"red_threes": 400, "natural_canastas": 500, "melded_cards": 35},
    ),
    (
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        {"four_red_threes": 800},
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    (
        "austrian-6",
        {"red_threes": 6, "natural_canastas": 1, "melded_points": 35},
        None,
        1735,
        {"red_threes": 1200, "natural_canastas": 500, "melded_cards": 35},
    ),
    # §11.5 encyclopedia
    ("encyclopedia", {"red_threes": 4, "melded_points": 60}, None, 860, {"red_threes": 800, "melded_cards": 60}),
    ("encyclopedia", {"red_threes": 2, "hand_points": 10}, None, -210, {"red_threes": -200, "cards_in_hand": -10}),
    (
        "encyclopedia",
        {
            "melded_points": 1000,
            "offence_red_three_not_laid": 1,
            "offence_drawing_error": 1,
            "offence_drew_out_of_turn": 1,
            "offence_melded_out_of_turn": 1,
        },
        None,
        250,
        {
            "melded_cards": 1000,
            "offence_red_three_not_laid": -500,
            "offence_drawing_error": -50,
            "offence_drew_out_of_turn": -100,
            "offence_melded_out_of_turn": -100,
        },
    ),
]


@pytest.mark.parametrize(
    "variant, side, settings, expected, items", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_worked_examples(variant, side, settings, expected, items):
    assert score(variant, side, settings) == (expected, items)


@pytest.mark.parametrize(
    "variant, settings, table",
    [
        ("six-3x2", None, [(-5, 15), (0, 50), (1500, 90), (3000, 120), (7000, 120)]),
        ("six-2x3", None, [(-5, 15), (1495, 50), (2995, 90), (6995, 120), (7000, 150)]),
        ("miller", None, [(-5, 15), (7000, 150)]),
        ("vienna", None, [(-5, 15), (0, 50), (1500, 90), (3000, 120)]),
        ("modern", None, [(-2000, 125), (-5, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180), (20000, 180)]),
        ("canadian", None, [(-5, 50), (0, 50), (1500, 90), (3000, 120), (6995, 120), (7000, 150)]),
        ("canadian", {"negative_minimum": 15}, [(-5, 15), (0, 50)]),
        ("austrian", None, [(-5, 50), (0, 50), (1500, 90), (2350, 90), (3000, 120)]),
        ("austrian", {"negative_minimum": 15}, [(-5, 15), (0, 50)]),
        ("encyclopedia", None, [(-5, 15), (0, 50), (1500, 90), (3000, 120)]),
    ],
)
def test_opening_tables(variant, settings, table):
    rules = rules_of(variant, settings)
    assert [(total, scoring.opening_minimum(rules, total)) for total, _ in table] == table  # §12


@pytest.mark.parametrize(
    "variant, sides, field, needle",
    [
        (
            "six-3x2",
            [{"went_out": "normal", "natural_canastas": 1, "melded_points": 100}, {}, {}],
            "went_out",
            "at least 2",
        ),
        (
            "miller",
            [{"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 2, "melded_points": 200}, {}],
            "went_out",
            "2 natural",
        ),
        ("miller", [{"went_out": "normal", "natural_canastas": 2, "melded_points": 200}, {}], "went_out", "at least 3"),
        (
            "canadian",
            [{"went_out": "normal", "natural_canastas": 3, "melded_points": 200}, {}],
            "went_out",
            "1 wild-card",
        ),
        (
            "canadian",
            [
                {
                    "went_out": "normal",
                    "natural_canastas": 1,
                    "mixed_canastas": 1,
                    "wild_canastas": 1,
                    "melded_points": 300,
                },
                {},
            ],
            "went_out",
            "2 natural",
        ),
        ("modern", [{"went_out": "normal", "natural_canastas": 1, "melded_points": 100}, {}], "went_out", "at least 2"),
        (
            "modern",
            [{"went_out": "garbage", "mixed_canastas": 1, "melded_points": 100}, {}],
            "went_out",
            "had not melded",
        ),
        (
            "modern",
            [{"red_threes": 1, "melded_cards": {"black_threes": 1}}, {}],
            "melded_cards.black_threes",
            "Unknown card group",
        ),
        (
            "vienna",
            [{"went_out": "concealed", "natural_canastas": 1, "melded_points": 100}, {}],
            "went_out",
            '"hand_canasta"',
        ),
        ("classic", [{"wild_canastas": 1, "melded_points": 200}, {}], "wild_canastas", "Unknown field"),
        ("six-3x2", [{"red_threes": 4}, {"red_threes": 3}, {}], "red_threes", "6 red threes"),
        ("classic", [{"red_threes": 5}, {}], "red_threes", "At most 4"),
        (
            "canadian",
            [{"black_threes_in_hand": 4}, {"black_threes_in_hand": 3}],
            "black_threes_in_hand",
            "6 black threes",
        ),
        ("modern", [{"holding_aces": 3}, {}], "holding_aces", "At most 2"),
    ],
)
def test_rule_set_checks(variant, sides, field, needle):
    _read, problems = checks.read_hand(rules_of(variant), sides)
    assert any(p.field == field and needle in p.message for p in problems), problems


def test_six_red_threes_fit_a_162_card_deck():
    _read, problems = checks.read_hand(
        rules_of("six-3x2"), [{"red_threes": 4, "melded_points": 50}, {"red_threes": 2}, {}]
    )
    assert problems == []


def test_modern_no_going_out_with_an_incomplete_meld_setting():
    side = {"went_out": "normal", "natural_canastas": 2, "incomplete_aces": 1, "melded_points": 200}
    assert checks.read_hand(rules_of("modern"), [side, {}])[1] == []
    problems = checks.read_hand(rules_of("modern", {"no_out_with_incomplete": True}), [side, {}])[1]
    assert [p.field for p in problems] == ["went_out"]


@pytest.mark.parametrize(
    "variant, totals, finished, winner, leads",
    [
        ("six-3x2", (7500, 6000, 7100), True, 0, (0, 1500, 400)),  # §6 7500, lead over each team
        ("six-3x2", (7495, 6000, 7100), False, None, ()),
        ("six-2x3", (9995, 9000), False, None, ()),
        ("six-2x3", (10000, 9000), True, 0, (0, 1000)),
        ("canadian", (9800, 10050), True, 1, (250, 0)),
        ("modern", (8500, 8600), True, 1, (100, 0)),  # §8.1 both past: the higher wins
        ("austrian", (5000, 100), True, 0, (0, 4900)),
    ],
)
def test_targets_and_leads(variant, totals, finished, winner, leads):
    result = scoring.game_result(rules_of(variant), totals)
    assert (result.finished, result.winner, result.leads) == (finished, winner, leads)


def test_custom_target_and_three_way_tie():
    rules = rules_of("six-3x2", target=3000)
    assert scoring.game_result(rules, (3000, 100, 200)).finished
    tie = scoring.game_result(rules, (3500, 3500, 200))
    assert (tie.finished, tie.tie) == (False, True)  # §15.4 default


def test_classic_three_players_red_threes_stay_personal():
    # §5: Bert alone and never melded: 4 red threes −800 − 20 = −820 (all four held by one individual);
    # Anna & Carl pool natural 500 + melded 300 = 800 each, without red threes
    rules = rules_of("classic-3p")
    sides = [{"natural_canastas": 1, "melded_points": 300}, {"red_threes": 4, "hand_points": 20}, {}]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == []
    assert [s.score for s in scoring.score_hand(rules, read, 1)] == [800, -820, 800]
    # each scores alone (stock ran out, nobody took the pile): Anna 800, Bert −820, Carl 0
    read, problems = checks.read_hand(rules, sides, stock_out=True, lone=None)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, None)] == [800, -820, 0]


def test_classic_three_players_partner_who_melded_nothing_keeps_the_partnership_sign():
    # §5 reading (a): Anna went out with a natural canasta (35 melded); Carl, her partner, melded
    # nothing himself (ticked "nothing melded") and holds a red three. The partnership has melded,
    # so his red three counts plus: 100 going out + 500 natural + 35 melded + 100 = 735;
    # Anna 100 + 500 + 35 = 635 (no red three of her own). Bert alone, nothing: 0.
    rules = rules_of("classic-3p")
    sides = [
        {"natural_canastas": 1, "melded_points": 35, "went_out": "normal"},
        {},
        {"red_threes": 1, "has_melded": False},
    ]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == []
    assert [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 735]


def test_classic_three_players_settings_of_15_3():
    # §15.3, setting "own": Carl's red three counts by his own melds: he melded nothing, so −100;
    # the partnership's 635 as above: Carl 635 − 100 = 535, Anna 635
    rules = rules_of("classic-3p", {"lone_red_sign": "own"})
    sides = [
        {"natural_canastas": 1, "melded_points": 35, "went_out": "normal"},
        {},
        {"red_threes": 1, "has_melded": False},
    ]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 535]
    # §5 reading (b): Anna and Carl hold two red threes each. Default: the all-four value is one
    # player's, so each counts 2 red threes = 200: 635 + 200 = 835 each.
    sides = [{"natural_canastas": 1, "melded_points": 35, "went_out": "normal", "red_threes": 2}, {}, {"red_threes": 2}]
    read, problems = checks.read_hand(rules_of("classic-3p"), sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules_of("classic-3p"), read, 1)] == [835, 0, 835]
    # Setting "partnership": the four between them score 800, each his own two at 200 = 400: 1035 each
    rules = rules_of("classic-3p", {"lone_all_four": "partnership"})
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [1035, 0, 1035]


def test_classic_three_players_penalty_is_the_offenders_own():
    # §15.11: penalties come off the offending side's score; in §5 the partners keep individual
    # totals, so Carl's 100 penalty is his alone: Anna 635, Carl 635 − 100 = 535
    rules = rules_of("classic-3p")
    sides = [{"natural_canastas": 1, "melded_points": 35, "went_out": "normal"}, {}, {"penalties": 100}]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 535]
