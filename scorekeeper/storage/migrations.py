"""The archive's schema, one migration per step (sqlite_utils' Migrations): each is applied once,
in order, and never changed once released; ``db.open_db`` applies the ones a file has not had yet."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("scorekeeper")


@migrations()
def m001_games_and_hands(db: Database) -> None:
    """Games with their variant and seats; hands store each side's inputs, never only scores."""
    db["games"].create(
        {
            "id": int,
            "variant": str,
            "players": str,  # JSON list of names in seat order, going to the left
            "first_dealer": int,  # seat index of the dealer of the first hand
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
    )
    db["hands"].create(
        {
            "id": int,
            "game_id": int,
            "sides": str,  # JSON list of the raw side entries (see checks.py)
            "created_at": str,
            "updated_at": str,
            "deleted_at": str,  # soft delete, so a deletion can be undone
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db["hands"].create_index(["game_id", "deleted_at"])


@migrations()
def m002_rule_set_options(db: Database) -> None:
    """A game's seating layout, house-rule settings and custom target; how a hand ended."""
    db["games"].add_column("layout", str)
    db["games"].add_column("settings", str)  # JSON object of setting key → value
    db["games"].add_column("target", int)  # None: the rule set's own
    db["hands"].add_column("stock_out", int)  # 1: nobody went out, the stock ran out


@migrations()
def m003_lone_player(db: Database) -> None:
    """Classic 3 players: who played alone in each hand."""
    db["hands"].add_column("lone", int)


@migrations()
def m004_complete_game(db: Database) -> None:
    """[003]'s complete Game: three Partien linked by the id of the first, numbered 1–3."""
    db["games"].add_column("match_id", int)
    db["games"].add_column("partie", int)
    db["games"].create_index(["match_id"])


@migrations()
def m005_archive(db: Database) -> None:
    """Players kept across evenings, evenings of games, seats by player, and per-game results kept
    up to date on every write so statistics read aggregates instead of replaying every hand."""
    _m005_people(db)
    _m005_results(db)
    _m005_backfill(db)


def _m005_people(db: Database) -> None:
    """m005: players (one per name, any case), evenings and who came, each game's seats by player."""
    db["players"].create({"id": int, "name": str, "created_at": str}, pk="id")
    db.execute("CREATE UNIQUE INDEX players_name ON players(name COLLATE NOCASE)")
    db["evenings"].create({"id": int, "date": str, "place": str, "note": str, "created_at": str}, pk="id")
    db["evenings"].create_index(["date"])
    db["evening_players"].create(
        {"evening_id": int, "player_id": int, "position": int},
        pk=("evening_id", "player_id"),
        foreign_keys=[("evening_id", "evenings", "id"), ("player_id", "players", "id")],
    )
    db["game_seats"].create(
        {"game_id": int, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db["game_seats"].create_index(["player_id"])
    db["games"].add_column("evening_id", int)
    db["games"].add_column("reopened", int)
    db["games"].create_index(["evening_id"])


def _m005_results(db: Database) -> None:
    """m005: each game's result and each player's result in it, kept on every write."""
    db["game_results"].create(
        {
            "game_id": int,
            "variant": str,
            "day": str,
            "hands": int,
            "finished": int,
            "winner": int,
            "margin": int,
            "totals": str,
            "sides": str,
        },
        pk="game_id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db["game_results"].create_index(["day"])
    db["game_results"].create_index(["variant", "day"])
    db["player_results"].create(
        {
            "game_id": int,
            "player_id": int,
            "side": int,
            "day": str,
            "finished": int,
            "won": int,
            "hands": int,
            "points": int,
            "best_hand": int,
            "canastas": int,
            "margin": int,
            "total": int,
        },
        pk=("game_id", "player_id"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db["player_results"].create_index(["player_id", "day"])


def _m005_backfill(db: Database) -> None:
    """m005: the games already stored get their players and seats."""
    # backfill in SQL, frozen here: each seat's player, found or added by name (any case); the
    # results are kept by the app after the migrations (results.rebuild_results)
    db.execute(
        "insert or ignore into players (name, created_at) "
        "select trim(j.value), g.created_at from games g, json_each(g.players) j order by g.id, j.key"
    )
    db.execute(
        "insert into game_seats (game_id, seat, player_id) select g.id, j.key, "
        "(select p.id from players p where p.name = trim(j.value) collate nocase) from games g, json_each(g.players) j"
    )


@migrations()
def m006_aggregates(db: Database) -> None:
    """Totals per player and per partnership kept up to date on write, and indexes in the order
    the pages read, so the statistics and history cost the same on a big archive as on a small one."""
    db["player_totals"].create(
        {
            "player_id": int,
            "games": int,
            "finished": int,
            "won": int,
            "hands": int,
            "points": int,
            "best_hand": int,
            "canastas": int,
            "margin": int,
        },
        pk="player_id",
    )
    db["pair_totals"].create(
        {"a": int, "b": int, "games": int, "finished": int, "won": int, "margin": int},
        pk=("a", "b"),
    )
    db["pair_totals"].create_index(["games"])
    db["game_results"].add_column("evening_id", int)
    db.execute("create index game_results_day_id on game_results(day desc, game_id desc)")
    db.execute("create index player_results_player_day on player_results(player_id, day desc, game_id desc)")
    db.execute("create index games_updated on games(updated_at desc, id desc)")


@migrations()
def m007_live_and_idempotency(db: Database) -> None:
    """A version per game that every write raises (phones poll it to follow the game live), and a
    key per hand sent by the phone, so a retried or doubled submission is stored once."""
    db["games"].add_column("version", int, not_null_default=0)
    db["hands"].add_column("client_key", str)
    db.execute("create unique index hands_client_key on hands(game_id, client_key) where client_key is not null")


@migrations()
def m008_hand_versions(db: Database) -> None:
    """A version per hand that every change raises: a correction based on an older one is refused."""
    db["hands"].add_column("version", int, not_null_default=0)


WATCHED = ("games", "hands", "players", "evenings", "evening_players", "game_seats")


@migrations()
def m009_generation(db: Database) -> None:
    """One number that every change to the archive raises (by triggers, so no write can forget
    it): pages rendered for one generation can be served again until the next change."""
    db.execute("create table meta (id integer primary key check (id = 1), generation integer not null)")
    db.execute("insert into meta (id, generation) values (1, 0)")
    for table in WATCHED:
        for event in ("insert", "update", "delete"):
            db.execute(
                f"create trigger {table}_{event}_generation after {event} on {table} "
                "begin update meta set generation = generation + 1 where id = 1; end"
            )


@migrations()
def m010_deleted_games(db: Database) -> None:
    """A deleted game is kept here, whole, so its deletion can be undone."""
    db.execute("create table deleted_games (game_id integer primary key, deleted_at text not null, data text not null)")


@migrations()
def m011_kept_figures(db: Database) -> None:
    """Each hand keeps its side scores and each game its running figures, so a save brings the
    results up to date from the hand it changed instead of replaying the game; one Partie per
    number in a complete Game. (The figures are filled by the app after the migrations.)"""
    db["hands"].add_column("scores", str)  # JSON list of each side's score of this hand
    db["game_results"].add_column("kept", str)  # JSON of sheet.Running
    db.execute("create unique index games_match_partie on games(match_id, partie) where match_id is not null")


# How an empty seat was named before guests existed, in the app's four languages (frozen here).
DEFAULT_SEAT_NAMES = ("Player [0-9]*", "Spieler [0-9]*", "Giocatore [0-9]*", "Mängija [0-9]*")


@migrations()
def m012_guests(db: Database) -> None:
    """An empty seat is a guest of its game only (no archive player). Players still called by an
    empty seat's default name ("Player 3", never named) become guests of each of their games and
    leave the players, evenings and kept totals."""
    defaults = " or ".join("name glob ?" for _ in DEFAULT_SEAT_NAMES)
    db.execute(f"create temporary table unnamed as select id from players where {defaults}", DEFAULT_SEAT_NAMES)
    # the kept totals of their partners lose the partnerships with them; the games' results are
    # kept again by the app after the migrations (their game_results rows are dropped here)
    db.execute("delete from game_results where game_id in (select game_id from game_seats where player_id in unnamed)")
    db.execute(
        "delete from player_results where game_id in (select game_id from game_seats where player_id in unnamed)"
    )
    db.execute("delete from player_totals")
    db.execute("delete from pair_totals")
    db.execute("update game_seats set player_id = null where player_id in unnamed")
    db.execute("delete from evening_players where player_id in unnamed")
    db.execute("delete from players where id in unnamed")
    db.execute("drop table unnamed")
    # the totals are summed again from every game's kept rows (the guests' games are refreshed after)
    db.execute(
        "insert into player_totals (player_id, games, finished, won, hands, points, best_hand, canastas, margin) "
        "select player_id, count(*), sum(finished), sum(won), sum(hands), sum(points), max(best_hand), "
        "sum(canastas), sum(margin) from player_results group by player_id"
    )
    db.execute(
        "insert into pair_totals (a, b, games, finished, won, margin) "
        "select x.player_id, y.player_id, count(*), sum(x.finished), sum(x.won), sum(x.margin) "
        "from player_results x join player_results y on x.game_id = y.game_id and x.side = y.side "
        "and x.player_id < y.player_id group by x.player_id, y.player_id"
    )


APPEND_ONLY = (
    "create trigger changes_never_updated before update on changes "
    "begin select raise(abort, 'the change log is append-only'); end",
    "create trigger changes_never_deleted before delete on changes "
    "begin select raise(abort, 'the change log is append-only'); end",
)


@migrations()
def m013_change_log(db: Database) -> None:
    """Every change on record: an append-only log written in the same transaction as the change
    (when, which phone, what, the entry before and after), and the phones that made them."""
    db.execute(
        "create table phones (id integer primary key, token text not null unique, name text, created_at text not null)"
    )
    db.execute(
        "create table changes (id integer primary key, game_id integer, hand_id integer, at text not null, "
        "phone_id integer references phones(id), action text not null, before text, after text)"
    )
    db.execute("create index changes_game on changes(game_id, id)")
    db.execute("create index changes_hand on changes(hand_id, id)")
    for trigger in APPEND_ONLY:
        db.execute(trigger)


@migrations()
def m014_ratings(db: Database) -> None:
    """Each player's rating (openskill, docs/ratings.md), each rated game's change for each of its
    players and the outcome it was rated with; a deleted game or player takes its rows along (an
    erased archive leaves none). The ratings of the games already played are computed here, once."""
    db.execute(
        "create table ratings (player_id integer primary key, mu real not null, sigma real not null, "
        "games integer not null)"
    )
    db.execute("create table rated_games (game_id integer primary key, outcome text not null)")
    db.execute(
        "create table rating_changes (game_id integer not null, player_id integer not null, mu_before real not null, "
        "sigma_before real not null, mu real not null, sigma real not null, games integer not null, "
        "primary key (game_id, player_id))"
    )
    db.execute("create index rating_changes_player on rating_changes(player_id, game_id)")
    db.execute(
        "create trigger games_delete_ratings after delete on games begin "
        "delete from rated_games where game_id = old.id; delete from rating_changes where game_id = old.id; end"
    )
    db.execute(
        "create trigger players_delete_ratings after delete on players begin "
        "delete from ratings where player_id = old.id; delete from rating_changes where player_id = old.id; end"
    )
    from scorekeeper.storage import ratings  # today's code: a later change of the model is a migration of its own

    ratings.rebuild(db)


@migrations()
def m015_evening_players_by_hand(db: Database) -> None:
    """Whether a player is on an evening's list because someone put him there (the evening's form)
    or only because he sat at one of its games: a player whose only games were deleted leaves the
    lists then. The players already on a list stay there (by hand)."""
    db["evening_players"].add_column("by_hand", int, not_null_default=1)


@migrations()
def m016_house_rules(db: Database) -> None:
    """A table's own rule sets (docs/rules.md, "A table's own rules"): a built-in rule set and layout with
    some values changed, named (each name once), versioned; a game started from one keeps its id (the
    values themselves are copied into the game's settings, so changing the rule set later changes no game)."""
    db.execute(
        "create table house_rules (id integer primary key, name text not null, base text not null, layout text, "
        "changes text not null, version integer not null default 0, created_at text not null, "
        "updated_at text not null)"
    )
    db.execute("create unique index house_rules_name on house_rules(name collate nocase)")
    db["games"].add_column("house_rules_id", int)
    db.execute("create index games_house_rules on games(house_rules_id)")


@migrations()
def m017_tournaments(db: Database) -> None:
    """A club night at several tables (docs/tournaments.md): the tournament with its entrants (JSON: a
    list of players or pairs, each a list of names), its format, rules and round end; the seed of its
    draw; each round's start and its end by the organiser; each table's game of a round (a game is in
    one tournament, one table, one round); the organiser's actions on record."""
    db.execute(
        "create table tournaments (id integer primary key, name text not null, format text not null, "
        "variant text not null, layout text, settings text not null, house_rules_id integer, target integer, "
        "round_end text not null, round_hands integer, round_minutes integer, season_points text not null, "
        "entrants text not null, seed integer, drawn_at text, closed_at text, evening_id integer, "
        "version integer not null default 0, created_at text not null, updated_at text not null)"
    )
    db.execute(
        "create table tournament_rounds (tournament_id integer not null references tournaments(id), "
        "round integer not null, started_at text not null, ended_at text, primary key (tournament_id, round))"
    )
    db.execute(
        "create table tournament_games (tournament_id integer not null references tournaments(id), "
        "round integer not null, table_no integer not null, game_id integer not null unique, units text not null, "
        "primary key (tournament_id, round, table_no))"
    )
    db.execute(
        "create table tournament_log (id integer primary key, tournament_id integer not null, action text not null, "
        "detail text, at text not null, phone_id integer)"
    )
    db.execute("create index tournament_log_of on tournament_log(tournament_id, id)")
    for table in ("tournaments", "tournament_rounds", "tournament_games"):
        for event in ("insert", "update", "delete"):
            db.execute(
                f"create trigger {table}_{event}_generation after {event} on {table} "
                "begin update meta set generation = generation + 1 where id = 1; end"
            )


@migrations()
def m018_tournament_kept(db: Database) -> None:
    """What a tournament keeps as it goes (JSON, null until then): the order of its draw, its entrants'
    players in the archive (from the draw: a rename keeps the seat), its places at the close."""
    for column in ("draw_order", "entrant_ids", "places"):
        db.execute(f"alter table tournaments add column {column} text")


@migrations()
def m019_tournament_ties(db: Database) -> None:
    """What a round sat out counts ("average" of the pair's games, "win" or "nothing") and whether
    entrants level on everything share their place ("shared") or the draw number decides ("lot")
    (docs/tournaments.md, "A pair that sits out", "Shared places")."""
    db.execute("alter table tournaments add column bye_score text not null default 'average'")
    db.execute("alter table tournaments add column ties text not null default 'shared'")


@migrations()
def m020_organiser_hands(db: Database) -> None:
    """Who entered a change, when it was not the table's own phone: "organiser" for a hand the organiser
    entered or corrected from the director's grid (a table whose phone died); null otherwise."""
    db.execute("alter table changes add column entered_by text")


@migrations()
def m021_tournament_table_rules(db: Database) -> None:
    """What tables of five and six play (JSON, null: none chosen): per table size, the rule set (or the
    table's own made from one), its seating and settings (docs/tournaments.md, "Tables of four, five and six")."""
    db.execute("alter table tournaments add column table_rules text")


@migrations()
def m022_tournament_checkin(db: Database) -> None:
    """Who has come, ticked by the organiser before the draw (JSON: a list of entrants, each a list of
    names, as in ``entrants``; null until a check-in is saved, when the draw seats everyone). The draw
    seats only those checked in (docs/tournaments.md)."""
    db.execute("alter table tournaments add column checked_in text")


@migrations()
def m023_confirmed_hands(db: Database) -> None:
    """The other side confirms each hand (docs/tournaments.md): a tournament's choice (0: off), and per hand
    when it was confirmed and by whom ("side 1", "side 2" … or "organiser"; null: not confirmed yet, which
    counts only at the tables of a tournament with the choice on)."""
    db.execute("alter table tournaments add column confirm_hands integer not null default 0")
    db.execute("alter table hands add column confirmed_at text")
    db.execute("alter table hands add column confirmed_by text")


@migrations()
def m024_partners_share_canastas(db: Database) -> None:
    """Classic 3 players: both partners of a hand are credited with the partnership's canastas in the
    statistics (core/sheet.hand_canastas; the hands keep them in the column they were entered in). The
    games with such a hand have their kept figures made again by the app after the migrations
    (``kept`` emptied here), and the players' totals move by the difference then."""
    db.execute(
        "update game_results set kept = null "
        "where game_id in (select distinct game_id from hands where lone is not null and deleted_at is null)"
    )


@migrations()
def m025_tournament_games_end_with_their_round(db: Database) -> None:
    """A tournament table's game ends with its round (docs/tournaments.md, "When a round ends"): the
    statistics count it once a later round has started or the tournament is closed. The kept figures
    of every tournament game are emptied here, so the app keeps them again when it opens the archive."""
    db.execute("update game_results set kept = null where game_id in (select game_id from tournament_games)")


@migrations()
def m026_hand_numbers_never_given_twice(db: Database) -> None:
    """The highest hand number of each deleted game, beside it: a new hand takes a number above every
    hand kept for Undo, so a game brought back keeps its hands' numbers, their order and their change
    log (a hand saved at another table between Delete and Undo took a deleted hand's number, and the
    game came back with its hands in another order and one hand's history on another)."""
    db.execute("alter table deleted_games add column max_hand_id integer")
    db.execute(
        "update deleted_games set max_hand_id = "
        "(select max(json_extract(value, '$.id')) from json_each(deleted_games.data, '$.hands'))"
    )


@migrations()
def m027_black_threes_among_the_cards_at_their_penalty(db: Database) -> None:
    """Black threes given among the cards left in hand where one costs a penalty of its own (a table's own
    rules) cost that penalty, as their row does, not their card value (docs/rules.md, "A table's own
    rules"). Every hand holding such a count has its kept score emptied here (only that hand is scored
    again; where no penalty applies its score stays what it was), and its game's kept figures, so the
    app keeps them again when it opens the archive and the sheet and the history agree."""
    black_threes_in_hand = (
        "case when json_valid(hands.sides) then exists (select 1 from json_each(hands.sides) side "
        "where json_type(side.value, '$.hand_cards.black_threes') = 'integer' "
        "and json_extract(side.value, '$.hand_cards.black_threes') > 0) else 0 end"
    )
    games = db.execute(f"select distinct game_id from hands where {black_threes_in_hand}").fetchall()
    db.execute(f"update hands set scores = null where {black_threes_in_hand}")
    db.conn.executemany("update game_results set kept = null where game_id = ?", games)


@migrations()
def m028_partnerships_count_their_sides_lead(db: Database) -> None:
    """A partnership's +/− counts its side's lead in each game (``core.results.side_lead``), not the first
    partner's share of the settlement, which differs from the other's where the sides are of two sizes
    (Austrian, 2 against 3: 1580 and 790 of a lead of 790). Every kept row takes its margin as its lead
    (what the partnerships were counted with, and each row's lead where sides are of one size); the games
    whose sides are not (the only layouts: Austrian's and the Encyclopedia's of five, 2 against 3; a
    player beside a guest there too) have their kept figures emptied, so the app keeps them again when it
    opens the archive and moves the partnerships' totals by the difference."""
    db.execute("alter table player_results add column lead integer")
    db.execute("update player_results set lead = margin")
    db.execute(
        "update game_results set kept = null where game_id in (select id from games "
        "where variant in ('austrian', 'encyclopedia') and layout = '5') or game_id in (select game_id "
        "from player_results group by game_id, side having count(distinct margin) > 1)"
    )


@migrations()
def m029_house_rules_raise_the_generation(db: Database) -> None:
    """A table's own rule set changed (its name above all) raises the archive's generation, as every other
    table a page shows does (m009): the history and a player's games name a game by its table's rule set,
    and a page kept for the generation before would name it as it was."""
    for event in ("insert", "update", "delete"):
        db.execute(
            f"create trigger house_rules_{event}_generation after {event} on house_rules "
            "begin update meta set generation = generation + 1 where id = 1; end"
        )
