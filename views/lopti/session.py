"""A Lopti session in the app: deal after deal, the winner's new house rule, one rule vote per deal
(P-2.3, P-8 … P-10). No Flet here; plain pytest covers it.

The engine's :class:`LoptiSession` is an immutable value; this controller keeps the *steps* that
made it — each finished deal (by its stored game), each winner's rule, each vote — and stores them
with the session row, so a session resumes days later by replaying the same steps through the
engine (ties in a vote are settled by the engine's seeded rock-paper-scissors, so the replay is
exact). Bots write their rule (``bot_rule``) and vote (``bot_vote``) through the engine's API."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import TYPE_CHECKING, Any, TypedDict

from engine.core import Why
from engine.lopti.describe import describe
from engine.lopti.house_rules import RuleDoc
from engine.lopti.options import LoptiOptions
from engine.lopti.session import Brought, LoptiSession, bot_brings_back, bot_rule, bot_vote
from engine.lopti.session_lesson import SessionLesson
from engine.lopti.table_rules import is_table_rule
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import Proposal, VoteError, VoteRecord, tally
from storage.seats import PERSON, stored_seats
from views.lopti.contract import LoptiControls
from views.lopti.controller import LoptiMatch
from views.lopti.rule_draft import RuleDraft

if TYPE_CHECKING:
    from storage.db import Storage

STAND_IN = "casual"  # the bot that takes the seat of a person who left the session


@dataclass(frozen=True)
class Tie:
    """Who stepped forward to defend a rule in a tied vote (P-10.2; None: the engine's default,
    every supporter), and the throws people made in the knockout between them (P-10.4); for a
    base-rule change, who the table saw object first (P-10.2; None: the engine's seat order)."""

    defenders: list[int] | None = None
    knockout: dict[int, list[str]] = field(default_factory=dict)
    first_objector: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"knockout": {str(k): list(v) for k, v in self.knockout.items()}}
        if self.defenders is not None:
            out["defenders"] = list(self.defenders)
        if self.first_objector is not None:
            out["first_objector"] = self.first_objector
        return out


class SessionFlow:
    def __init__(self, storage: Storage, levels: list[str], seed: int, session_id: int | None = None,
                 steps: list[list[Any]] | None = None) -> None:
        from storage import api

        self.api = api
        self.storage = storage
        self.levels = [PERSON, *levels]
        #: the seats as the session began (a person who leaves is replaced by a stand-in bot, and
        #: that is a step of the session, replayed on resume)
        self.start_levels = list(levels)
        self.seed = seed
        self.session = LoptiSession(len(self.levels), seed)
        self.steps: list[list[Any]] = []
        self.session_id = session_id
        self.current_game_id: int | None = None
        #: a lesson's coach when this is a practice session (never stored, no deals dealt)
        self.coach: SessionCoach | None = None
        for step in steps or []:
            self._apply(step)
            self.steps.append(step)

    # --- storage ----------------------------------------------------------------------------------
    def end(self) -> None:
        """The table gets up: the session is kept (history, export) but no longer offered to continue."""
        self.save(status="ended")

    @classmethod
    def practice(cls, storage: Storage, lesson: SessionLesson) -> SessionFlow:
        """The table a session lesson starts from (its deals already played), coached."""
        flow = cls(storage, list(lesson.levels), lesson.seed)
        flow.session = lesson.start()
        flow.coach = SessionCoach(lesson, storage)
        return flow

    def save(self, status: str = "running") -> None:
        if self.coach is not None:  # a lesson's practice table is not a session to continue
            self.coach.record(self.session)
            return
        seats = stored_seats(self.levels)
        data = {"players": len(self.levels), "seed": self.seed, "levels": self.start_levels, "steps": self.steps,
                "session": self.session.to_json()}
        self.session_id = self.api.save_session(self.storage, data, seats, session_id=self.session_id,
                                                status=status, current_game_id=self.current_game_id)

    @classmethod
    def resume(cls, storage: Storage, session_id: int) -> SessionFlow:
        from storage import api

        row = api.load_session(storage, session_id)
        data = row["data"]
        flow = cls(storage, list(data["levels"]), int(data["seed"]), session_id, list(data["steps"]))
        flow.current_game_id = row["current_game_id"]
        return flow

    def _step(self, step: list[Any]) -> None:
        self._apply(step)
        self.steps.append(step)
        self.save()

    def _apply(self, step: list[Any]) -> None:
        kind = step[0]
        if kind == "deal":
            _, state = self.api.resume_game(self.storage, int(step[1]))
            self.session = self.session.record(state)
        elif kind == "rule":
            self.session = self.session.add_winner_rule(step[1], int(step[2]))
        elif kind == "vote":
            hands = {int(k): list(v) for k, v in (step[3] if len(step) > 3 else {}).items()}
            # throws made by hand in the series; the defenders who stepped forward and the throws
            # people made in their knockout (P-10.4; a vote stored before people threw there has
            # none, and its knockout is the app's seeded one, as it was)
            tie = step[4] if len(step) > 4 else {}
            defenders = [int(s) for s in tie["defenders"]] if "defenders" in tie else None
            knockout = {int(k): list(v) for k, v in tie.get("knockout", {}).items()}
            first = tie.get("first_objector")
            self.session = self.session.hold_vote(Proposal.from_json(step[1]),
                                                  {int(k): bool(v) for k, v in step[2].items()},
                                                  throwers=self._throwers(hands), defenders=defenders,
                                                  bracket_throwers=self.session.bracket_throwers(knockout),
                                                  first_objector=None if first is None else int(first))
        elif kind == "carry":  # P-11.2: the first step of a session that follows another at this table
            if self.session.results or self.session.rules:
                raise ValueError("rules are carried over only when a session starts")
            earlier = SessionFlow.resume(self.storage, int(step[1])).session
            keep = {rid: {int(k): bool(v) for k, v in votes.items()} for rid, votes in step[2].items()}
            self.session = earlier.new_session(self.seed, keep, _brought(step[3] if len(step) > 3 else []))
        elif kind == "delete":
            self.session = self.session.delete_own_rule(str(step[1]), int(step[2]))
        elif kind == "leave":
            self.session = self.session.leave(int(step[1]))
            self.levels[int(step[1])] = STAND_IN
        elif kind == "options":  # the table's settings, the session's first step (#36 item 5)
            if self.session.results or self.session.rules:
                raise ValueError("a table's settings are chosen when its session starts")
            self.session = replace(self.session, options=LoptiOptions.from_json(step[1]))
        else:
            raise ValueError(f"unknown session step {kind!r}")

    def stop_at_first_out(self) -> None:
        """The table stops each deal when its first player goes out (P-7.4: play *may* continue to
        rank the places; only the winner counts, P-8). Chosen when the session starts."""
        self._step(["options", {**self.session.options.to_json(), "first_out_ends": True}])

    # --- deals ------------------------------------------------------------------------------------
    @property
    def deal_number(self) -> int:
        return self.session.deal_number

    def start_deal(self) -> LoptiMatch:
        """The current deal as a table's match: the rules in force, the session's leader and seed."""
        if self.session_id is None:
            self.save()
        # the session's deal seed is 64-bit; the stored record (a signed 64-bit column) keeps 63 of
        # them, and the record holds the seed the deal was really dealt from
        seed = self.session.deal_seed & 0x7FFF_FFFF_FFFF_FFFF
        match = LoptiMatch.new(self.storage, self.levels[1:], seed, options=self.session.deal_options(),
                               session_id=self.session_id)
        self.current_game_id = match.game_id
        self.save()
        return match

    def current_match(self) -> LoptiMatch | None:
        """The deal in progress (resumed), if any. A deal that ended but was not recorded (the app
        closed in between) is recorded now, so the session goes on between deals."""
        if self.current_game_id is None:
            return None
        match = LoptiMatch.resume(self.storage, self.current_game_id)
        if match.status.over:
            self.deal_over(match)
            return None
        return match

    def deal_over(self, match: LoptiControls) -> None:
        """Record a finished deal; a bot winner writes its rule at once."""
        game_id = match.mode.game_id
        if not match.status.over or game_id is None or ["deal", game_id] in self.steps:
            return
        self.current_game_id = None
        self._step(["deal", game_id])
        winner = self.winner
        if winner is not None and self.levels[winner] != PERSON:
            rule = bot_rule(self.session, winner, self.seed)
            self._step(["rule", rule, winner])

    @property
    def winner(self) -> int | None:
        return self.session.results[-1][0] if self.session.results else None

    def rule_pending(self) -> bool:
        """The last deal's winner is a person who has not chosen a rule yet (P-8.1)."""
        w = self.winner
        return (w is not None and self.levels[w] == PERSON
                and not self.session.rule_written(w))

    # --- the winner's rule --------------------------------------------------------------------------
    def rule_choices(self, lang: str) -> list[tuple[dict[str, Any], str]]:
        """The ready-made rules not yet in the session, each with its description in ``lang``."""
        used = {r.id.rsplit("-", 1)[0] for r in self.session.rules} | {r.id for r in self.session.rules}
        return [(tpl, describe(tpl, lang)) for tpl in TEMPLATES if tpl["id"] not in used]

    def add_rule(self, template: dict[str, Any]) -> None:
        w = self.winner
        if w is None:
            raise VoteError("no deal has been won yet")
        self._step(["rule", {**template, "id": f"{template['id']}-{w}"}, w])

    def add_own_rule(self, draft: RuleDraft) -> dict[str, Any]:
        """The winner's rule written in the builder (its id names the deal and the author)."""
        w = self.winner
        if w is None:
            raise VoteError("no deal has been won yet")
        rule = draft.to_rule(f"own-{self.deal_number}-{w}")
        self._step(["rule", rule, w])
        return rule

    def add_table_rule(self, words: str) -> dict[str, Any]:
        """The winner's rule in their own words (a table rule: kept by the table, never enforced)."""
        w = self.winner
        if w is None:
            raise VoteError("no deal has been won yet")
        rule = {"id": f"table-{self.deal_number}-{w}", "table": words}
        self._step(["rule", rule, w])
        return self.session.rules[-1].rule

    def save_to_library(self, rule_id: str, words: str) -> None:
        """#36 item 6: keep a rule of this session in the device's library (once), for a later
        session's setup to bring back."""
        rule = next(r.rule for r in self.session.rules if r.id == rule_id)
        self.api.save_preset(self.storage, "lopti_rule", words, rule)

    def table_rules_now(self) -> list[tuple[str, str, int | None]]:
        """(id, words, author) of each table rule in force in the current deal: what the table
        keeps by hand while it plays (shown on the table and at each handover)."""
        out = []
        for r in self.session.rules:
            version = r.version_for(self.deal_number)
            if is_table_rule(version):
                out.append((r.id, str(version["table"]), r.author))
        return out

    def table_rules(self) -> set[str]:
        """The ids of the session's table rules (the words the table keeps; the engine enforces the rest)."""
        return {r.id for r in self.session.rules if is_table_rule(r.rule)}

    def deletable(self, seat: int) -> list[str]:
        """The rules ``seat`` may delete now (the engine's P-9.4 list); bots never delete by tap."""
        return self.session.deletable_by(seat) if self.levels[seat] == PERSON else []

    def delete_rule(self, rule_id: str, seat: int) -> None:
        self.session.delete_own_rule(rule_id, seat)  # raises VoteError before anything is stored
        self._step(["delete", rule_id, seat])

    # --- the vote -----------------------------------------------------------------------------------
    def can_vote(self) -> bool:
        """This deal's one vote is still open (a base rule can be changed even with no house rule)."""
        return self.session.vote_open()

    def proposals(self, proposer: int) -> list[Proposal]:
        """The engine's rule proposals for ``proposer`` (a change to a base rule: :meth:`params`)."""
        return self.session.proposals_for(proposer)

    def params(self) -> list[tuple[str, int, list[tuple[int, Why | None]]]]:
        """The base rules a vote may change, as the engine lists them: (name, value now, each other
        value with why the engine refuses it, or None)."""
        return self.session.param_choices()

    def check(self, proposal: Proposal) -> None:
        """Raise VoteError (in the engine's words) if the proposal cannot be voted on."""
        self.session.check_proposal(proposal)

    def ballots(self, proposal: Proposal, people: dict[int, bool]) -> dict[int, bool]:
        """Every seat's vote: people's as given, every bot's by ``bot_vote``."""
        return {seat: people.get(seat, False) if lv == PERSON else bot_vote(self.session, proposal, seat)
                for seat, lv in enumerate(self.levels)}

    def throwers_by_hand(self, proposal: Proposal, people: dict[int, bool],
                         tie: Tie | None = None) -> tuple[int, int] | None:
        """When the count is a tie and a person is one of the two sides, the sides (proposer,
        defender) of the rock-paper-scissors series a person may throw by hand; else None."""
        votes = self.ballots(proposal, people)
        if tally(votes, self.session.players) != "tie":
            return None
        tie = tie or Tie()
        proposer, defender = self.session.tie_sides(proposal, votes, self.session.bracket_throwers(tie.knockout),
                                                    tie.defenders, tie.first_objector)
        if defender is None or PERSON not in (self.levels[proposer], self.levels[defender]):
            return None
        return proposer, defender

    # --- defenders (P-10.2, P-10.4) -------------------------------------------------------------------
    def can_leave(self) -> list[int]:
        """The people who may leave the table now (not the device's owner at seat 1, nobody gone)."""
        if len(self.levels) - len(self.session.absent) <= 2:
            return []
        return [s for s, lv in enumerate(self.levels) if lv == PERSON and s != 0 and s not in self.session.absent]

    def leave(self, seat: int) -> None:
        """``seat``'s person leaves the session: a Casual bot plays the seat from the next deal;
        their rules stay in force, defended in a tie by their supporters (P-10.2)."""
        if seat not in self.can_leave():
            raise VoteError(f"seat {seat + 1} cannot leave the table now")
        self._step(["leave", seat])

    def defender_choices(self, proposal: Proposal, people: dict[int, bool]) -> list[int]:
        """Who may step forward to defend the rule in this tie (the engine's list; empty when its
        author defends it, when there is no tie, or for a base-rule change)."""
        return self.session.defender_choices(proposal, self.ballots(proposal, people))

    def objector_choices(self, proposal: Proposal, people: dict[int, bool]) -> list[int]:
        """Whom to ask about when a base-rule change is tied (P-10.2): the players who objected, in
        the engine's seat order from the proposer, when there are several and a person is among
        them (the table saw who objected first; bots cast their votes together, so a table of
        bots takes the engine's order). Empty otherwise."""
        objectors = self.session.objector_choices(proposal, self.ballots(proposal, people))
        return objectors if len(objectors) > 1 and any(self.levels[s] == PERSON for s in objectors) else []

    def bot_defends(self, seat: int) -> bool:
        """A bot that voted to keep a rule steps forward to defend it."""
        return self.levels[seat] != PERSON

    def knockout(self, volunteers: list[int], throws: dict[int, list[str]]) -> tuple[int | None, int | None]:
        """The P-10.4 knockout as far as people's throws decide it: (representative, None), or
        (None, the person to throw next). Bots throw the engine's seeded throws."""
        people = {s for s in volunteers if self.levels[s] == PERSON}
        return self.session.knockout(volunteers, throws, people)

    def bot_throws(self, seat: int) -> Iterator[str]:
        """The throws the app makes for ``seat`` in this deal's vote (the engine's seeded ones)."""
        return self.session.default_thrower(seat)

    def _throwers(self, hands: dict[int, list[str]]) -> Callable[[int], Iterator[str]]:
        """Seats that threw by hand throw those throws first, then the app throws for them."""
        session = self.session
        return lambda seat: chain(hands.get(seat, []), session.default_thrower(seat))

    def vote(self, proposal: Proposal, people: dict[int, bool],
             hands: dict[int, list[str]] | None = None, tie: Tie | None = None) -> VoteRecord:
        """People's votes as given; every bot votes by ``bot_vote``. A tie goes to rock-paper-scissors:
        ``hands`` are the throws people made by hand (the app throws the rest); ``tie`` says who
        stepped forward to defend a rule whose author cannot, and the knockout's throws."""
        votes = self.ballots(proposal, people)
        step: list[Any] = ["vote", proposal.to_json(), {str(k): v for k, v in votes.items()}]
        if hands or tie:
            step.append({str(k): list(v) for k, v in (hands or {}).items()})
        if tie:
            step.append(tie.to_json())
        self._step(step)  # a proposal the engine refuses raises VoteError before anything is stored
        return self.session.votes[-1]

    # --- the next session at this table (P-11) -------------------------------------------------------
    def carry_ballots(self, people: dict[str, dict[int, bool]]) -> dict[str, dict[int, bool]]:
        """For each rule in force at the end of this session, every seat's vote on bringing it into
        the next one: people's as given (default no), every bot's by ``bot_vote`` on a restore."""
        out = {}
        for r in self.session.rules:
            if r.in_force:
                out[r.id] = self.ballots(Proposal("restore", 0, rule_id=r.id), people.get(r.id, {}))
        return out

    def old_rules(self) -> list[OldRule]:
        """#36 item 6: the old rules a new session's setup may bring back besides this session's:
        those of the earlier sessions at this table (by their authors), then the device's library
        (nobody's here), each once and none already in this session. Keyed ``old-<n>``."""
        seen = {_content(r.rule) for r in self.session.rules}
        found: list[tuple[RuleDoc, int | None, int | None]] = []
        for earlier in self._earlier_sessions():
            found += [(r.rule, r.author, None) for r in earlier.rules]
        found += [(data, None, pid) for pid, _, data in self.api.presets(self.storage, "lopti_rule")
                  if isinstance(data, dict)]
        out: list[OldRule] = []
        for rule, author, pid in found:
            if _content(rule) not in seen and self.session.fits(rule, author):
                seen.add(_content(rule))
                out.append(OldRule(f"old-{len(out)}", rule, author, pid))
        return out



    def forget(self, old: OldRule) -> None:
        """Take a rule out of the device's library (the sessions that used it keep it)."""
        if old.preset is not None:
            self.api.delete_preset(self.storage, old.preset)

    def _earlier_sessions(self) -> list[LoptiSession]:
        """The sessions this one was carried from, the latest first (the ``carry`` steps' chain)."""
        out: list[LoptiSession] = []
        steps, seen = self.steps, set[int]()
        while True:
            carry = next((st for st in steps if st[0] == "carry"), None)
            if carry is None or int(carry[1]) in seen:
                return out
            seen.add(int(carry[1]))
            try:
                earlier = SessionFlow.resume(self.storage, int(carry[1]))
            except (LookupError, ValueError, VoteError):  # a session that was deleted or cannot be read
                return out
            out.append(earlier.session)
            steps = earlier.steps

    def brought_ballots(self, old: list[OldRule], people: dict[str, dict[int, bool]]) -> list[OldVote]:
        """The old rules voted on at setup, as the ``carry`` step stores them: every person's vote as
        given (default no); a bot votes to bring back only a rule it wrote."""
        out: list[OldVote] = []
        for o in old:
            votes = {seat: people.get(o.key, {}).get(seat, False) if lv == PERSON else bot_brings_back(o.author, seat)
                     for seat, lv in enumerate(self.levels)}
            if any(votes.values()):
                out.append(OldVote(rule=o.rule, author=o.author, votes={str(k): v for k, v in votes.items()}))
        return out

    def next_session(self, seed: int, people: dict[str, dict[int, bool]]) -> SessionFlow:
        """A new session at the same table: base rules only, except the old rules that a majority
        votes to keep at setup (P-11.1, P-11.2; those votes do not use the first deal's vote).
        This session ends; the new one is stored and returned (a lesson's practice table: the new
        one is practice too, coached on)."""
        if self.coach is not None:
            return self._next_practice(seed, people)
        if self.session_id is None:
            self.save()
        votes = self.carry_ballots(people)
        brought = self.brought_ballots(self.old_rules(), people)
        flow = SessionFlow(self.storage, self.levels[1:], seed)
        flow._step(["carry", self.session_id, {rid: {str(k): v for k, v in vs.items()} for rid, vs in votes.items()},
                    *([brought] if brought else [])])
        self.end()
        return flow

    def _next_practice(self, seed: int, people: dict[str, dict[int, bool]]) -> SessionFlow:
        """A lesson's next session at this table: never stored; the coach remembers this one."""
        assert self.coach is not None
        flow = SessionFlow(self.storage, self.levels[1:], seed)
        brought = _brought(self.brought_ballots(self.old_rules(), people))
        flow.session = self.session.new_session(seed, self.carry_ballots(people), brought)
        flow.coach = self.coach
        self.coach.earlier.append(self.session)
        flow.save()
        return flow

    # --- what the session screen shows ------------------------------------------------------------
    def rules_in_force(self, lang: str) -> list[tuple[str, str, int | None, bool]]:
        """(id, description, author, in force) for every rule of the session."""
        return [(r.id, describe(r.rule, lang), r.author, r.in_force) for r in self.session.rules]


class OldVote(TypedDict):
    """An old rule voted on at a new session's setup, as its ``carry`` step stores it."""

    rule: RuleDoc
    author: int | None
    votes: dict[str, bool]


@dataclass(frozen=True)
class OldRule:
    """An old rule offered at a new session's setup (#36 item 6): its key on the screen, the rule,
    and its author at this table (None: from the library)."""

    key: str
    rule: RuleDoc
    author: int | None
    #: its id in the library (None: an earlier session's rule)
    preset: int | None = None


def _content(rule: RuleDoc) -> str:
    """What a rule says, whatever its id and author: one old rule is offered once."""
    return json.dumps({k: v for k, v in rule.items() if k not in ("id", "author", "created_deal", "title")},
                      sort_keys=True)


def _brought(items: list[OldVote]) -> list[Brought]:
    """The ``carry`` step's old rules as the engine takes them."""
    return [(dict(x["rule"]), None if x["author"] is None else int(x["author"]),
             {int(k): bool(v) for k, v in x["votes"].items()}) for x in items]


class SessionCoach:
    """A session lesson's coach: which step the learner is on, read from the session they reached
    (the engine checks), its words, and progress saved as they go."""

    def __init__(self, lesson: SessionLesson, storage: Storage) -> None:
        self.lesson = lesson
        self.storage = storage
        self.hint_shown = False
        #: the sessions the learner left for a new one at the same table (what they taught stays done)
        self.earlier: list[LoptiSession] = []

    def step(self, session: LoptiSession) -> int:
        """The 0-based current step (``len(steps)`` when the lesson is done)."""
        return self.lesson.done_steps(*self.earlier, session)

    def finished(self, session: LoptiSession) -> bool:
        return self.step(session) == len(self.lesson.steps)

    def text(self, session: LoptiSession, lang: str) -> str:
        n = self.step(session)
        if n == len(self.lesson.steps):
            return self.lesson.done[lang]
        step = self.lesson.steps[n]
        if self.lesson.missed(*self.earlier, session) and step.missed is not None:
            return step.missed[lang]
        return step.text[lang]

    def hint(self, session: LoptiSession, lang: str) -> str:
        n = self.step(session)
        return self.lesson.steps[n].hint[lang] if self.hint_shown and n < len(self.lesson.steps) else ""

    def record(self, session: LoptiSession) -> None:
        self.hint_shown = False
        if self.storage is not None:
            from storage import api

            api.set_lesson(self.storage, self.lesson.id, self.step(session), self.finished(session))
