"""The rules are explained from the rule tables: the hand form's "How to count" and the reference page's
threes sentence come from the rule set's messages, in the reader's language."""

import pytest
from markupsafe import escape

from scorekeeper.core import rulesets
from scorekeeper.core.rulesets import model
from scorekeeper.web import i18n
from tests.helpers import start_game

NAMES6 = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


@pytest.mark.parametrize(
    ("variant", "settings", "sign"),
    [
        ("classic", {}, rulesets.RedThreeSign.MELDED),
        ("vienna", {}, rulesets.RedThreeSign.CANASTA),
        ("modern", {}, rulesets.RedThreeSign.CANASTA_COUNT),
        ("canadian", {}, rulesets.RedThreeSign.ALWAYS),
        ("canadian", {"red_three_sign": "melded"}, rulesets.RedThreeSign.MELDED),
        ("six-3x2", {"red_three_negative": False}, rulesets.RedThreeSign.ALWAYS),
    ],
)
def test_each_rule_set_has_its_red_three_sign_and_its_explanation(variant, settings, sign):
    rules = rulesets.configure(rulesets.get(variant), settings)
    assert rules.red_three_sign is sign
    assert rules.red_three_hint == model.RED_THREE_HINTS[sign]


def test_the_canasta_sign_with_nothing_for_a_meld_has_its_own_sentence():
    rules = rulesets.configure(rulesets.get("vienna"), {"red_three_melded_no_canasta": 0})
    assert "nothing with a meld but no canasta" in rules.red_three_rule
    assert "nothing" not in rulesets.configure(rulesets.get("vienna")).red_three_rule


def test_an_unknown_option_value_leaves_the_rule_sets_own():
    rules = rulesets.configure(rulesets.get("classic"), {"tie_rule": True})
    assert rules.tie_rule is rulesets.TieRule.PLAY_ON
    assert rulesets.configure(rulesets.get("classic"), {"tie_rule": "draw"}).tie_rule is rulesets.TieRule.DRAW


def test_house_rules_keep_their_values_as_the_api_and_stored_games_give_them():
    for rules in rulesets.RULE_SETS.values():
        for setting in rules.settings:
            assert type(setting.default) in (bool, int, str), setting.key
            assert all(type(value) is type(setting.default) for value, _label in setting.choices), setting.key


@pytest.mark.parametrize(
    ("variant", "names", "shown"),
    [
        ("classic", NAMES6[:4], ["melded_with_black", "side", "red:melded"]),
        ("classic-2p", NAMES6[:2], ["melded_with_black", "player"]),
        ("classic-3p", NAMES6[:3], ["lone", "partners"]),
        ("modern", NAMES6[:4], ["melded_without", "straight", "red:canasta_count"]),
        ("canadian", NAMES6[:4], ["red:always", "side_but_black"]),  # black threes in hand have their row
    ],
)
def test_the_hand_form_explains_how_to_count_from_the_tables(client, variant, names, shown):
    rules = rulesets.configure(rulesets.get(variant))
    texts = {
        "melded_with_black": model.MELDED_WITH_BLACK_THREES,
        "melded_without": model.MELDED_WITHOUT_THREES,
        "side": model.HAND_OF_A_SIDE,
        "player": model.HAND_OF_A_PLAYER,
        "side_but_black": model.HAND_OF_A_SIDE_BUT_BLACK_THREES,
        "lone": model.LONE_TRIGGER_HINTS[rulesets.LoneTrigger.PILE_OR_OUT],
        "partners": model.LONE_PARTNERS_HINT,
        "straight": model.THREE_KEPT_FOR_A_STRAIGHT,
        "red:melded": model.RED_THREE_HINTS[rulesets.RedThreeSign.MELDED],
        "red:canasta_count": model.RED_THREE_HINTS[rulesets.RedThreeSign.CANASTA_COUNT],
        "red:always": model.RED_THREE_HINTS[rulesets.RedThreeSign.ALWAYS] % {"points": rules.red_three_values[1]},
    }
    game_id = start_game(client, variant=variant, names=names)
    page = client.get(f"/games/{game_id}/hands/new").text
    for key in shown:
        assert str(escape(texts[key])) in page, key
    if "straight" not in shown:
        assert str(escape(model.THREE_KEPT_FOR_A_STRAIGHT)) not in page
    if "side_but_black" in shown:  # a black three among the cards too would cost 105 (a review at the table)
        assert str(escape(model.HAND_OF_A_SIDE)) not in page


def test_the_pile_or_meld_rule_is_shown_when_the_game_chose_it(client):
    game_id = start_game(client, variant="classic-3p", names=NAMES6[:3], settings={"lone_trigger": "pile_or_meld"})
    page = client.get(f"/games/{game_id}/hands/new").text
    hint = model.LONE_TRIGGER_HINTS[rulesets.LoneTrigger.PILE_OR_MELD]
    assert str(escape(hint)) in page


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_the_explanations_are_translated_where_they_are_shown(client, language):
    client.get(f"/prefs?lang={language}&next=/")
    page = client.get("/rules/modern").text
    assert str(escape(rulesets.get("modern").red_three_rule)) not in page
