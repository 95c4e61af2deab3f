"""Schemathesis against the app in process: requests generated from the OpenAPI document
(``GET /api/openapi.json``), valid and invalid, to every JSON endpoint; no answer may be a server
error, and every status code, content type, header and body must be one the document declares.

The archive holds a few games (a finished one, an open one, a classic 3-player one with a lone
player) so the game endpoints answer 200 as well as 404, and a hand posted to ``hands.json`` can
be stored (201), stored again (200), refused (422) or refused as the game is over (409). CSRF is
off for the generated requests (the header is documented, but a generated one is never valid)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.web import openapi
from tests.conftest import make_app
from tests.helpers import complete_game, post_hand, side_fields, start_game, win_hand

pytestmark = pytest.mark.slow

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# A request the document forbids is refused too (the document is no looser than the app) -- except
# for hands.json: with CSRF off here, a request without the X-CSRFToken header is (rightly) taken,
# and a hand sent again with a key already stored is answered 200 whatever else it holds.
STRICT = [*CHECKS, negative_data_rejection]


@pytest.fixture(scope="module")
def api_app(tmp_path_factory):
    """The app on an archive of four games and a complete Game; CSRF off once they are entered. Game 1 is
    empty, so the document's example hand is stored (201) and then found again by its key (200); game 2 is
    over (409); game 4 has a corrected hand in its change log; games 5 to 7 are a complete Game's Partien."""
    app = make_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path_factory.mktemp("api") / "api.sqlite")}
    )
    client = app.test_client()
    assert start_game(client) == 1
    finished = start_game(client)  # 4000 : 50 twice, over
    post_hand(client, finished, *win_hand())
    post_hand(client, finished, *win_hand())
    lone = start_game(client, variant="classic-3p", names=["Anna", "Bert", "Carl"])
    post_hand(
        client,
        lone,
        side_fields(0, went_out="normal", natural=1, melded=200),
        side_fields(1, mixed=1, melded=150, red=1),
        side_fields(2, hand=40, red=2),
        extra={"lone": "0"},
    )
    open_game = start_game(client, variant="classic-2p", names=["Anna", "Bert"])
    post_hand(client, open_game, side_fields(0, went_out="concealed", natural=2, melded=300), side_fields(1, hand=40))
    first = client.get(f"/api/games/{open_game}").get_json()["hands"][0]["id"]  # corrected: the log has a before
    edit = f"/games/{open_game}/hands/{first}/edit"
    post_hand(
        client,
        open_game,
        side_fields(0, went_out="concealed", natural=2, melded=350),
        side_fields(1, hand=40),
        url=edit,
    )
    from tests.test_openapi import _tournament

    assert complete_game(client) == 5  # GET /api/matches/5: two Partien won, the third started (the document's example)
    _tournament(app)  # tournament 1: drawn, round 1 being played
    app.config["WTF_CSRF_ENABLED"] = False
    return app


# The document as the app serves it (tests/test_openapi.py checks /api/openapi.json answers this very
# dict). Loaded here rather than with ``schemathesis.openapi.from_wsgi``, which needs an app already at
# collection, and ``schemathesis.pytest.from_fixture`` does not run on pytest 9 (it sets
# ``request.node._nodeid``, gone from pytest); the requests still go to the app in process (``app=``).
schema = schemathesis.openapi.from_dict(openapi.document())


@schema.parametrize()
@settings(
    max_examples=50,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_one_the_document_declares(case, api_app):
    # identity: Werkzeug's test client, which Schemathesis sends through, does not undo the app's gzip
    checks = CHECKS if case.path.endswith("hands.json") else STRICT
    case.call_and_validate(app=api_app, checks=checks, headers={"Accept-Encoding": "identity"})
