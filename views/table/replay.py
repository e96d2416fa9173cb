"""Replays of finished games, step by step, on the real tables.

A :class:`Timeline` rebuilds every state of a stored game from its record (the engine is pure, so
the states are exactly the ones played). ``*Replay`` controllers are the games' own controllers made
read-only: the table draws them as usual, from the player's own seat (what they saw then; a bot's
hand stays hidden), while every action a tap could send does nothing — a replay never writes to
the stored game."""

from __future__ import annotations

from typing import Any

from engine.core import Event, GameRecord
from engine.games import rules_for
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.ui.i18n import t


class Timeline:
    """``states[k]`` is the game after ``k`` actions; ``events[k]`` what action ``k`` caused."""

    def __init__(self, record: GameRecord[Any]) -> None:
        rules = rules_for(record.game)
        state = rules.new_game(rules.parse_options(record.options), record.seed, record.players)
        self.states: list[Any] = [state]
        self.events: list[list[Event]] = [[]]
        for raw in record.actions:
            state, evs = rules.apply(state, rules.parse_action(raw, state))
            self.states.append(state)
            self.events.append(list(evs))

    @property
    def last(self) -> int:
        return len(self.states) - 1


class ReplayMixin:
    """Read-only: no move, no undo, no hint, no bot, no handover; ``seek`` picks the step shown."""

    replaying = True
    timeline: Timeline
    step = 0

    def start_replay(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.seek(0)

    def seek(self, k: int) -> None:
        self.step = max(0, min(k, self.timeline.last))
        self._show(self.timeline.states[self.step])
        self.last_events = self.timeline.events[self.step]
        self.refusal = None

    def _show(self, state: Any) -> None:
        self.state = state

    def caption(self, lang: str) -> str:
        return t(lang, "replay_step", k=self.step, n=self.timeline.last)

    # --- everything a tap could do: nothing -------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        return False

    def can_undo(self) -> bool:
        return False

    def needs_handover(self) -> bool:
        return False

    def _nothing(self, *args: Any, **kwargs: Any) -> list[Event]:
        return []

    resign = play_at = discard = disband = play = take = flip = swap = keep = _nothing
    tap_stock = tap_pile = spit = apply_bot = tick = _nothing

    def select(self, *args: Any) -> None:
        return None

    tap_hand = tap_up = select

    def undo(self) -> bool:
        return False

    def hint(self) -> None:
        return None

    def bot_choice(self) -> None:
        return None


class LanesReplay(ReplayMixin, LanesMatch):
    pass


class LoptiReplay(ReplayMixin, LoptiMatch):
    pass


class SpitReplay(ReplayMixin, SpitGame):
    """The Spit driver keeps the live state; a replay shows the timeline's instead."""

    _replay_state: Any = None

    def _show(self, state: Any) -> None:
        self._replay_state = state

    @property  # type: ignore[override]
    def state(self) -> Any:
        return self._replay_state if self._replay_state is not None else self.driver.state

    def can_spit(self, player: int = 0) -> bool:
        return False

    def countdown_ends(self) -> float | None:
        return None

    def target_piles(self, player: int = 0) -> set[int]:
        return set()

    def target_slots(self, player: int = 0) -> set[int]:
        return set()


def open_replay(storage: Any, game_id: int) -> Any:
    """The read-only controller of stored game ``game_id``, at its first step."""
    from storage import api

    info = api.load_game(storage, game_id)
    controller: Any
    if info.game == "lanes":
        controller = LanesReplay.resume(storage, game_id)
    elif info.game == "lopti":
        controller = LoptiReplay.resume(storage, game_id)
        controller.viewer = controller.people[0]
    else:
        controller = SpitReplay.resume(storage, game_id, 0.0)
    controller.start_replay(Timeline(info.record))
    return controller
