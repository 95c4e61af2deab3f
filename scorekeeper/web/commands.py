"""The archive's commands on the computer: ``flask backup``, ``flask restore`` and ``flask ratings``
(registered with the archive's blueprint, whose commands are the app's own)."""

from __future__ import annotations

import json
import time

import click
from flask.cli import with_appcontext

from scorekeeper.core.messages import counted
from scorekeeper.services import archive as service
from scorekeeper.storage import backup, disk, leaderboard
from scorekeeper.storage.db import get_db
from scorekeeper.storage.export_check import NotAnExport


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
@with_appcontext
def backup_command(path: str) -> None:
    """Write the whole archive to PATH as JSON."""
    data = backup.export(get_db())
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, indent=1)
    click.echo(
        f"Wrote {counted(len(data['games']), 'game', 'games')}, "
        f"{counted(len(data['evenings']), 'evening', 'evenings')}, "
        f"{counted(len(data['players']), 'player', 'players')} to {path}"
    )


def _read_json(path: str):
    """The file's JSON, or a ClickException saying it is none."""
    with open(path, "rb") as src:
        try:
            return json.loads(src.read().decode("utf-8-sig"))
        except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, nested absurdly deep
            raise click.ClickException(f"{path} is not JSON: {error}") from None


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--replace", is_flag=True, help="Erase the archive first (it must otherwise be empty).")
@with_appcontext
def restore_command(path: str, replace: bool) -> None:
    """Restore a JSON export from PATH into an empty archive.

    The whole file is checked before anything is erased, and with --replace the erasing and the
    restoring are one transaction: a refused or failing file leaves the archive as it was."""
    data = _read_json(path)
    games = len(data.get("games") or []) if isinstance(data, dict) and isinstance(data.get("games"), list) else 0
    try:
        # the file is checked first; then a bar shows the games going in (tens of seconds for years of them)
        with click.progressbar(length=games, label="Restoring games", show_pos=True) as bar:
            counts = service.restore_archive(
                get_db(), data, replace=replace, progress=lambda done, total: bar.update(1)
            )
    except NotAnExport as error:
        raise click.ClickException(f"{error} The archive was left unchanged.") from None
    except disk.Unavailable as trouble:  # the disk, not the file: busy (try again) or full
        raise click.ClickException(
            f"The database could not take the import ({trouble}): nothing was imported, the archive was left "
            "unchanged. Try again when it is free or the disk has room."
        ) from None
    click.echo(
        f"Restored {counted(counts['games'], 'game', 'games')} with {counted(counts['hands'], 'hand', 'hands')}, "
        f"{counted(counts['evenings'], 'evening', 'evenings')}, {counted(counts['players'], 'player', 'players')}."
    )


@click.command("ratings")
@click.option("--rebuild", is_flag=True, help="Recompute every rating from the whole history, in game order.")
@with_appcontext
def ratings_command(rebuild: bool) -> None:
    """Show every player's rating; with --rebuild, recompute them all first (docs/ratings.md)."""
    db = get_db()
    if rebuild:
        started = time.perf_counter()
        count, same = service.rebuild_ratings(db)
        click.echo(
            f"Rated {counted(count, 'game', 'games')} again in {time.perf_counter() - started:.2f} s; "
            + ("the ratings kept were the same." if same else "the ratings kept were out of step and are now right.")
        )
    for row in sorted(leaderboard.players(db), key=lambda r: (r["rating"] is None, -(r["rating"] or 0))):
        if row["rating"] is not None:
            mark = " (provisional)" if row["provisional"] else ""
            games = counted(row["games"], "game", "games")
            click.echo(f"{row['rating']:6d} ±{row['uncertainty']:4d}  {games:>10}  {row['name']}{mark}")


COMMANDS = (backup_command, restore_command, ratings_command)
