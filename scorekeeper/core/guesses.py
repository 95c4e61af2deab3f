"""How many password guesses are checked: at most FAILURES_ALLOWED per address within FAILURE_WINDOW
seconds and EVERYONE_ALLOWED from all addresses together within EVERYONE_WINDOW, however many arrive
at once (the password page, web/access.py, keeps one for the app)."""

from __future__ import annotations

import threading
import time

FAILURES_ALLOWED = 5  # passwords checked per address ...
FAILURE_WINDOW = 300  # ... within this many seconds, then a pause
EVERYONE_ALLOWED = 20  # passwords checked from all addresses together ...
EVERYONE_WINDOW = 60  # ... within this many seconds: a home table never needs more; the owner waits at most this long


class Throttle:
    """At most ``allowed`` passwords checked per address within ``window`` seconds, and at most
    ``everyone_allowed`` from all addresses together within ``everyone_window`` seconds (guesses
    spread over many addresses), however many requests arrive at once: a slot is taken (under one
    lock, in both counts at once) before the password is checked, and given back only when it was
    the right one."""

    def __init__(
        self,
        allowed: int = FAILURES_ALLOWED,
        window: float = FAILURE_WINDOW,
        clock=time.monotonic,
        everyone_allowed: int = EVERYONE_ALLOWED,
        everyone_window: float = EVERYONE_WINDOW,
    ) -> None:
        self.allowed, self.window, self.clock = allowed, window, clock
        self.everyone_allowed, self.everyone_window = everyone_allowed, everyone_window
        self.slots: dict[str, list[float]] = {}
        self.everyone: list[float] = []
        self.lock = threading.Lock()

    def reserve(self, address: str) -> float | None:
        """Take a slot for one password check, or None when this address has used them all, or all
        addresses together have (``everyone_busy`` then says for how long)."""
        with self.lock:
            now = self.clock()
            for other in [a for a, times in self.slots.items() if all(now - t >= self.window for t in times)]:
                del self.slots[other]  # forget addresses whose guesses are all old
            self.everyone = [t for t in self.everyone if now - t < self.everyone_window]
            recent = self.slots.setdefault(address, [])
            if len(recent) >= self.allowed:
                return None
            if len(self.everyone) >= self.everyone_allowed:
                return None
            recent.append(now)
            self.everyone.append(now)
            return now

    def spent(self, address: str) -> bool:
        """Whether this address has used all its own slots."""
        with self.lock:
            now = self.clock()
            return sum(1 for t in self.slots.get(address, []) if now - t < self.window) >= self.allowed

    def everyone_busy(self) -> float:
        """Seconds until all addresses together may have a password checked again (0: now)."""
        with self.lock:
            now = self.clock()
            recent = sorted(t for t in self.everyone if now - t < self.everyone_window)
            if len(recent) < self.everyone_allowed:
                return 0.0
            return max(0.0, recent[len(recent) - self.everyone_allowed] + self.everyone_window - now)

    def release(self, address: str, slot: float) -> None:
        """The password was right: that check is not held against the address, nor against everyone."""
        with self.lock:
            recent = self.slots.get(address, [])
            if slot in recent:
                recent.remove(slot)
            if slot in self.everyone:
                self.everyone.remove(slot)

    def clear(self) -> None:
        with self.lock:
            self.slots.clear()
            self.everyone.clear()
