"""Helpers that fill in the forms the way a browser sends them."""

import re

from tests.conftest import csrf_token

NAMES4 = ["Anna", "Bert", "Carl", "Dora"]


def start_game(client, variant="classic", names=NAMES4, first_dealer=0, layout=None, settings=None, target=None):
    """Start a game through the New game form; return its id."""
    url = f"/games/new/{variant}"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": str(first_dealer)}
    if layout:
        data["layout"] = layout
    for key, value in (settings or {}).items():
        data[f"setting_{key}"] = str(value)
    if target:
        data["target"] = str(target)
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    response = client.post(url, data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def side_fields(
    index,
    went_out="no",
    natural=0,
    mixed=0,
    red=0,
    melded=None,
    hand=None,
    melded_cards=None,
    hand_cards=None,
    penalties=0,
    **more,
):
    """Form fields of one side, as the hand form posts them (``more``: other fields by name)."""
    prefix = f"sides-{index}-"
    fields = {
        **more,
        "went_out": went_out,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "penalties": penalties,
    }
    for part, points, cards in (("melded", melded, melded_cards), ("hand", hand, hand_cards)):
        if cards is not None:
            fields[f"{part}_mode"] = "counts"
            for key, count in cards.items():
                fields[f"{part}_{key}"] = count
        else:
            fields[f"{part}_mode"] = "points"
            fields[f"{part}_points"] = "" if points is None else points
    return {prefix + key: str(value) for key, value in fields.items()}


def post_hand(client, game_id, *sides, url=None, extra=None):
    """Post a hand (new, or to ``url`` for an edit) with a fresh CSRF token.

    When no side went out, the hand ended with the stock running out (ticked unless ``extra`` says)."""
    url = url or f"/games/{game_id}/hands/new"
    data = {"csrf_token": csrf_token(client, url)}
    for side in sides:
        data.update(side)
    if not any(k.endswith("-went_out") and v != "no" for k, v in data.items()):
        data["stock_out"] = "y"
    data.update(extra or {})
    return client.post(url, data=data)


def totals(page_text):
    """The big totals on the scoreboard, as integers."""
    return [int(t) for t in re.findall(r'<p class="total" data-side="\d">(-?\d+)</p>', page_text)]


def minimums(page_text):
    """The opening minimums shown on the scoreboard."""
    return [int(m) for m in re.findall(r"Opening meld <strong>(\d+)</strong>", page_text)]
