"""Names vulture (``.venv/bin/vulture``, settings in pyproject.toml's ``[tool.vulture]``) cannot see
used, each with where it is used, in vulture's whitelist form (``_.name``: any use of the name counts).
Flask's routes, context processors and migrations are left out by their decorators there, WTForms'
``validate_<field>`` hooks by name. Everything else it reports is dead: remove it (a function only
tests use goes into the tests)."""

# read by the templates (Jinja)
_.red_three_rule  # games/reference.html
_.lone_hint  # games/hand.html, and the four below
_.lone_partners_hint
_.melded_hint
_.hand_hint
_.black_three_hint
_.on_pad  # games/hand.html: a card count without a row of its own on the pad (core/entry.py)
_.extra_hands  # games/scoreboard.html
_.next_sitting_out  # games/scoreboard.html
_.opening_rows  # games/minimums.html
_.best_hand  # archive/player.html, archive/stats.html, and the three below
_.win_rate
_.average_hand
_.canastas_per_hand
_.provisional  # archive/player.html, archive/stats.html, games/partners.html
_.provisional
_.ranking_rule  # tournaments/standings.html
_.ranks_per_game  # tournaments/_tables.html
_.warning  # tournaments/standings.html
_.field_group  # games/hand.html, and the two below
_.side_field
_.fields_json
_.sure  # archive/player.html
_.round_length  # games/scoreboard.html, and the one below
_.confirms
_.deals  # tournaments/guide_cards.html, tournaments/score_cards.html

# the order of the side-entry table's groups (entry.Field.group is one of them): tests/test_side_entry.py
# holds the table to it
_.GROUPS

# a stored column, read back with its row (storage.reads.hand_from_row)
_.updated_at

# a layout's players sitting out per hand: set by the rule sets of six (core/rulesets/shared.py), not yet read
_.sit_out

# the fields of the JSON API's types and pydantic's settings (the OpenAPI document is made from them)
_.model_config
_.model_config
_.duplicate
_.provisional
_.partien
_.ended_at
_.stops_at

# called by the libraries these classes extend or configure
_._extract_indices  # WTForms' FieldList
_.process_formdata  # WTForms' Field, and the one below
_.pre_validate
_._parse_urlencoded  # werkzeug's FormDataParser
_.form_data_parser_class  # werkzeug's Request
_.field_title_should_be_set  # pydantic's GenerateJsonSchema
_.expect_continue  # waitress's HTTPRequestParser
_.parser_class  # waitress's HTTPChannel
_.check_client_disconnected  # waitress's WSGITask, of its channel (benchmarks/save_cpu.py)
_.wrap  # cheroot's ssl adapter, and the ones below
_.readable  # io's RawIOBase, and the one below
_.readinto
_.close_connection  # cheroot's request, read by its connection
_.bytes_read  # cheroot's StreamReader
_.ssl_env  # cheroot's HTTPConnection
_.max_request_body_size  # cheroot's server, and the two below
_.gateway
_.ConnectionClass
_.session_interface  # Flask's app (web/access.py)
_.request_class  # Flask's app (web/app.py)
_.__getattr__  # a module's attribute hook (scorekeeper/__init__.py: create_app, loaded when asked)
_.db_changes  # flask.g, read by g.pop("db_changes") in storage/db.py close_db
_.variants  # the API answer of GET /api/variants (web/api_models.py VariantList)
_.on_the_clock  # a round's clock still saying when it stops: read by templates/tournaments/standings.html and show.html
