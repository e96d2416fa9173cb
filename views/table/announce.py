"""What a screen reader hears at a turn-based table, decided from the lines a sighted player reads.

The status line (whose move, what to do, a refusal, the result) and the last-move line (what the
engine's events said) are the table's news. `Announcements` turns each change of them into one
spoken message: a move, then the status when it changed. While the bots play a burst (``hold``),
their moves are gathered and said together when the burst ends, so a listener hears one message per
turn of the table, not one per bot, and never a stale line said twice. Plain Python, tested without
Flet; the saying itself is `views.table.feedback.Feedback.say`.
"""

from __future__ import annotations

from collections.abc import Callable


class Announcements:
    """One per table: remembers what was last said and says only what changed."""

    def __init__(self, say: Callable[[str], None], earlier: Callable[[int], str] | None = None,
                 keep: int = 4) -> None:
        self.say = say
        #: a burst of more than ``keep`` moves says its last ``keep`` after ``earlier(n)`` ("3 earlier
        #: moves"): the bots finishing a deal I have left would otherwise be one message of dozens
        self.earlier, self.keep = earlier, keep
        self.status = ""
        self.last = ""
        #: the moves of a bot burst not said yet, in order
        self.pending: list[str] = []

    def shown(self, status: str, last: str, hold: bool = False) -> str | None:
        """The table now shows ``status`` and ``last`` (both in spoken words; "" when absent).
        Returns the message said (None when nothing new), and keeps it back while ``hold``."""
        if last and last != self.last:
            self.pending.append(last)
        self.last = last
        if hold:
            return None
        parts = list(self.pending)
        if self.earlier is not None and len(parts) > self.keep:
            parts = [self.earlier(len(parts) - self.keep), *parts[-self.keep:]]
        if status and (status != self.status or parts):
            parts.append(status)
        self.pending, self.status = [], status
        if not parts:
            return None
        message = " ".join(parts)
        self.say(message)
        return message
