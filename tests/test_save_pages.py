"""What a hand save writes to the disk: the pages it adds to the write-ahead log (each one written and
synced before the phone is told "saved"). A hand added changes the game's figures, never its day, its
variant or its players, so the indexes on those keep their pages."""

import os
import struct

from scorekeeper.services import games as game_service
from scorekeeper.storage.db import open_db

QUIET = [{"melded_points": 50, "hand_points": 50}, {"melded_points": 60, "hand_points": 60}]
HEADER, FRAME_HEADER = 32, 24


def _pages_written(path: str, page_size: int) -> list[int]:
    """The page numbers of the frames in the write-ahead log, in order."""
    data = open(f"{path}-wal", "rb").read()
    return [struct.unpack(">I", data[at : at + 4])[0] for at in range(HEADER, len(data), FRAME_HEADER + page_size)]


def test_a_hand_save_writes_only_the_pages_it_changes(tmp_path):
    path = str(tmp_path / "archive.sqlite")
    db = open_db(path)
    games = [game_service.create_game(db, "classic", [f"{n}a", f"{n}b", f"{n}c", f"{n}d"]).id for n in "AB"]
    for game_id in games * 5:
        assert game_service.add_hand(db, game_id, QUIET, True, client_key=os.urandom(8).hex()).ok
    page_size = db.execute("pragma page_size").fetchone()[0]
    counts, owners = [], {}
    for n in range(6):
        db.execute("pragma wal_checkpoint(truncate)")
        assert game_service.add_hand(db, games[n % 2], QUIET, True, client_key=f"key{n}", phone="phone").ok
        pages = _pages_written(path, page_size)
        counts.append(len(pages))
        try:
            owners = {page: name for name, page in db.execute("select name, pageno from dbstat")}
        except Exception:  # an SQLite built without the dbstat table: the count alone
            owners = {}
        for page in pages:
            # the hand, the game, the change log, the archive's generation, one page each of the results
            assert owners.get(page, "") not in (
                "sqlite_autoindex_player_results_1",
                "idx_player_results_player_id_day",
                "player_results_player_day",
                "idx_game_results_day",
                "idx_game_results_variant_day",
                "game_results_day_id",
                "rating_changes",
                "ratings",
                "rated_games",
            )
    # the hand and its two indexes, the game and its index of changes, the change log and its two indexes,
    # the generation, the game's result, its players' results, their totals: 12 (18 when the result rows
    # were deleted and written again); a page more now and then when a table grows
    assert sorted(counts)[len(counts) // 2] <= 12, counts
    db.close()
