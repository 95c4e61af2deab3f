"""The phones' sessions beside the database: which unlocked sessions were revoked ("Lock this
phone") and the password's generation (``set-password`` starts a new one), kept in a small JSON
file (mode 600) so a restart keeps them, and read again when another process changed it. This is
the login state of the phones, not the archive: it holds no game, player or evening."""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from pathlib import Path

from scorekeeper.storage import stamp as change_stamp


def file_stamp(path: str) -> tuple[int, int, int, int] | None:
    """A file's identity and version (device, inode, time, size): another stamp means another file
    or another content (a file replaced whole gets a new inode); None when it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


LOOK_ANYWAY = 1.0  # seconds after which the file is looked at though its change mark did not move


class Sessions:
    """Revoked phone sessions and the password's generation, kept in a JSON file (mode 600) and
    read again when another process (``set-password``) changed it; in memory only without a file."""

    def __init__(self, path: str | None, lifetime: float) -> None:
        self.path, self.lifetime = path, lifetime
        self.lock = threading.Lock()
        self.generation = 0
        self.revoked: dict[str, float] = {}
        self.stamp: tuple[int, int, int, int] | None = None
        self.seen: bytes | None = None  # the file's change mark when it was last looked at
        self.next_look = 0.0  # when the file is looked at anyway (time.monotonic): a change that moved no mark

    def change_mark(self) -> bytes | None:
        """The file's change mark (storage/stamp.py: eight shared bytes every writer of the file, in
        any of the score keeper's processes, changes after writing it), read without a system call;
        None without a file, or where the mark cannot be kept (then the file is looked at each time)."""
        mark = change_stamp.of(self.path) if self.path is not None else None
        return mark.read() if mark is not None else None

    def _refresh(self) -> None:
        if self.path is None:
            return
        stamp = file_stamp(self.path)
        if stamp is None or stamp == self.stamp:
            return
        try:
            data = json.loads(Path(self.path).read_text())
            self.generation = int(data.get("generation", 0))
            self.revoked = {str(k): float(v) for k, v in dict(data.get("revoked", {})).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            return  # a damaged file: keep what is known
        self.stamp = stamp

    def _save(self) -> None:
        now = time.time()
        # a cookie older than the session lifetime is refused anyway: no need to remember it
        self.revoked = {sid: at for sid, at in self.revoked.items() if now - at < self.lifetime + 86400}
        if self.path is None:
            return
        temporary = f"{self.path}.{secrets.token_hex(4)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump({"generation": self.generation, "revoked": self.revoked}, out)
        os.replace(temporary, self.path)
        os.chmod(self.path, 0o600)
        self.stamp = file_stamp(self.path)
        change_stamp.changed(self.path)  # every process sees it at its next look

    def _fresh(self) -> None:
        """Read again when another process changed the file. Its change mark is compared first: a
        request looks at the file (a stat, then the lock and a read when it changed) only when the
        mark moved, so the server's threads neither queue on the lock nor give up the interpreter
        for a system call on every request. The mark is read before the file: a change after it
        moves the mark again, and the next request looks again. A change that moved no mark (written by a
        process that could not open the mark, or an older version) is seen within LOOK_ANYWAY seconds."""
        if self.path is None:
            return
        mark, now = self.change_mark(), time.monotonic()
        if mark is not None and mark == self.seen and now < self.next_look:
            return
        looked = file_stamp(self.path)
        if looked != self.stamp:
            with self.lock:
                self._refresh()
        if self.stamp == looked:  # read (a damaged file is looked at again at the next request)
            self.seen, self.next_look = mark, now + LOOK_ANYWAY

    def current_generation(self) -> int:
        self._fresh()
        return self.generation

    def is_revoked(self, sid: str) -> bool:
        self._fresh()
        return sid in self.revoked

    def revoke(self, sid: str) -> None:
        with self.lock:
            self._refresh()
            self.revoked[sid] = time.time()
            self._save()

    def new_generation(self) -> None:
        """Every phone unlocked so far is locked again (a new password)."""
        with self.lock:
            self._refresh()
            self.generation += 1
            self.revoked.clear()  # all older than the generation now
            self._save()
