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


def file_stamp(path: str) -> tuple[int, int, int, int] | None:
    """A file's identity and version (device, inode, time, size): another stamp means another file
    or another content (a file replaced whole gets a new inode); None when it cannot be read."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


class Sessions:
    """Revoked phone sessions and the password's generation, kept in a JSON file (mode 600) and
    read again when another process (``set-password``) changed it; in memory only without a file."""

    def __init__(self, path: str | None, lifetime: float) -> None:
        self.path, self.lifetime = path, lifetime
        self.lock = threading.Lock()
        self.generation = 0
        self.revoked: dict[str, float] = {}
        self.stamp: tuple[int, int, int, int] | None = None

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

    def _fresh(self) -> None:
        """Read again when another process changed the file. The stat is made outside the lock:
        a request only waits for it when the file did change (under the lock, a stat on every
        request made the server's threads queue behind each other)."""
        if self.path is not None and file_stamp(self.path) != self.stamp:
            with self.lock:
                self._refresh()

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
