"""A Lopti session: several deals, the winners' rules, one rule vote per deal, RPS for ties
(P-2.3, P-8 … P-11). A session is an immutable value; every step returns a new session, so the
app can store each one and a session can be paused and resumed days later.

Deal order: the dealer rotates clockwise each deal; the first deal's dealer leads and every later
deal is led by the previous deal's winner (P-2.3). Rules: a winner's new rule applies from the next
deal (no retroactivity, P-8.3) and does not use the vote (P-9.3); an author may delete their own
rule at any time (P-9.4); a removed rule returns only through a later vote (P-9.7); each deal has
one vote, which a failed or tied vote still uses (P-9.5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any

from engine.cards import Rng, derive_seed
from engine.core import BadRequest, Why
from engine.lopti.house_rules import BaseParams, RuleError, parse_rule
from engine.lopti.options import LoptiOptions
from engine.lopti.rps import bracket, seeded_thrower, series
from engine.lopti.rules import deal
from engine.lopti.state import LoptiState
from engine.lopti.table_rules import is_table_rule, table_rule
from engine.lopti.votes import Proposal, VoteError, VoteRecord, tally

ACTIVE, MODIFIED, REMOVED = "active", "modified", "removed"


@dataclass(frozen=True)
class SessionRule:
    """A custom rule in a session with its author, status and history of changes."""

    rule: dict[str, Any]
    author: int | None
    status: str = ACTIVE
    active_from_deal: int = 0
    history: tuple[str, ...] = ()
    #: the version in force before ``active_from_deal`` (a modification voted for the next deal)
    previous: dict[str, Any] | None = None
    #: a removal takes effect from this deal on (a removal voted for the next deal)
    removed_from: int | None = None
    #: the number of deals played when its author, that deal's winner, wrote it (None: carried
    #: from an earlier session) — a vote that changes the rule from the next deal moves
    #: ``active_from_deal``, never this
    written_after: int | None = None

    @property
    def id(self) -> str:
        return str(self.rule["id"])

    @property
    def in_force(self) -> bool:
        return self.status in (ACTIVE, MODIFIED)

    def version_for(self, deal_no: int) -> dict[str, Any] | None:
        """The version of this rule in force during deal ``deal_no`` (None: not in force)."""
        if self.removed_from is not None and deal_no >= self.removed_from:
            return None
        if deal_no < self.active_from_deal:
            return self.previous
        return self.rule

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "author": self.author, "status": self.status,
                "active_from_deal": self.active_from_deal, "history": list(self.history),
                "previous": self.previous, "removed_from": self.removed_from, "written_after": self.written_after}


Thrower = Callable[[int], Iterator[str]]
#: an old rule offered at a new session's setup: (the rule, its author or None, every seat's vote)
Brought = tuple[dict[str, Any], "int | None", dict[int, bool]]


class _ThrowNeeded(Exception):
    """A knockout reached a throw a person has not made yet."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


@dataclass(frozen=True)
class LoptiSession:
    players: int
    seed: int
    first_dealer: int = 0
    options: LoptiOptions = field(default_factory=LoptiOptions)
    #: places of each finished deal, first out first
    results: tuple[tuple[int, ...], ...] = ()
    rules: tuple[SessionRule, ...] = ()
    #: base-rule changes voted in this session: (from deal, parameter, value), in vote order
    param_changes: tuple[tuple[int, str, int], ...] = ()
    votes: tuple[VoteRecord, ...] = ()
    #: seats that have left the session (their rules stay; P-10.2 needs defenders then)
    absent: frozenset[int] = frozenset()

    # --- deals --------------------------------------------------------------------------------

    @property
    def deal_number(self) -> int:
        """0-based number of the current (or next) deal."""
        return len(self.results)

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.deal_number) % self.players

    @property
    def leader(self) -> int:
        return self.dealer if not self.results else self.results[-1][0]

    def deal_options(self) -> LoptiOptions:
        """Options for the current deal: rules in force from this deal on, in creation order."""
        versions = [r.version_for(self.deal_number) for r in self.rules]
        active = tuple(parse_rule(v, self.players) for v in versions  # a table rule is kept by the table
                       if v is not None and not is_table_rule(v))
        return replace(self.options, house_rules=active, params=self.params_for(self.deal_number),
                       leader=self.leader, deal_number=self.deal_number)

    def params_for(self, deal_no: int) -> BaseParams:
        """Base parameters in force during ``deal_no`` (session-only changes, P-9.1)."""
        values: dict[str, int] = {}
        for start, name, value in self.param_changes:
            if start <= deal_no:
                values[name] = value
        return BaseParams(**values)

    @property
    def deal_seed(self) -> int:
        return derive_seed(self.seed, "deal", self.deal_number)

    def start_deal(self) -> LoptiState:
        """The current deal. Its record is ``("lopti", deal_options().to_json(), deal_seed, players)``."""
        state = deal(self.deal_options(), self.deal_seed, self.players, self.leader)
        state.deal_number = self.deal_number
        return state

    def record(self, finished: LoptiState) -> LoptiSession:
        if not finished.over:
            raise BadRequest("only a finished deal can be recorded")
        return replace(self, results=(*self.results, tuple(finished.places)))

    @property
    def winners(self) -> list[int]:
        return [r[0] for r in self.results]

    # --- rules ----------------------------------------------------------------------------------

    def _rule(self, rule_id: str) -> SessionRule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise VoteError(f"there is no rule {rule_id!r} in this session")

    def _replace_rule(self, new: SessionRule) -> tuple[SessionRule, ...]:
        return tuple(new if r.id == new.id else r for r in self.rules)

    def add_winner_rule(self, rule: dict[str, Any], author: int) -> LoptiSession:
        """P-8.1: the last deal's winner adds a rule; it applies from the next deal and uses no vote."""
        if not self.results or self.results[-1][0] != author:
            raise VoteError("only the winner of the last deal adds a rule (P-8.1)")
        if self.rule_written(author):
            raise VoteError("the winner adds one rule per won deal")
        try:
            written = (table_rule(rule.get("id", ""), rule["table"], author) if is_table_rule(rule) else parse_rule(
                {**rule, "author": author, "created_deal": self.deal_number - 1}, self.players).to_json())
        except RuleError as exc:
            raise VoteError("; ".join(exc.problems)) from None
        if any(r.id == written["id"] for r in self.rules):
            raise VoteError(f"a rule with id {written['id']!r} already exists in this session")
        entry = SessionRule(written, author, ACTIVE, self.deal_number,
                            (f"created after deal {self.deal_number}",), written_after=self.deal_number)
        return replace(self, rules=(*self.rules, entry))

    def rule_written(self, author: int) -> bool:
        """``author`` has written their rule for the last deal's win (P-8.1: one rule per won deal)."""
        return any(r.author == author and r.written_after == self.deal_number for r in self.rules)

    def delete_own_rule(self, rule_id: str, by: int) -> LoptiSession:
        """P-9.4: an author deletes their own rule without a vote (and gets no replacement)."""
        r = self._rule(rule_id)
        if r.author != by:
            raise VoteError("only the rule's author may delete it without a vote (P-9.4)")
        if not r.in_force:
            raise VoteError("that rule is already removed")
        gone = replace(r, status=REMOVED, removed_from=self.deal_number,
                       history=(*r.history, f"deleted by its author in deal {self.deal_number}"))
        return replace(self, rules=self._replace_rule(gone))

    def deletable_by(self, seat: int) -> list[str]:
        """P-9.4: the rules in force that ``seat`` wrote, each deletable by them now without a vote."""
        return [r.id for r in self.rules if r.author == seat and r.in_force]

    # --- the vote -------------------------------------------------------------------------------

    def proposals_for(self, seat: int) -> list[Proposal]:
        """The rule proposals ``seat`` may put to this deal's vote (P-9.1, P-9.7): remove or change a
        rule in force (the change starts from the rule as it is), restore a removed one. Empty when
        the vote is not open. Base-rule changes come from :meth:`param_choices`."""
        if not self.vote_open():
            return []
        out = []
        for r in self.rules:
            if r.in_force:
                out.append(Proposal("remove", seat, rule_id=r.id))
                out.append(Proposal("modify", seat, rule_id=r.id, new_rule=r.rule))
            else:
                out.append(Proposal("restore", seat, rule_id=r.id))
        return out

    def param_choices(self) -> list[tuple[str, int, list[tuple[int, Why | None]]]]:
        """The base rules a vote may change for the session (P-9.1): (name, value now, every other
        value of its range with why it cannot be played beside the others in force, or None)."""
        now = self.params_for(self.deal_number)
        return [(name, getattr(now, name), [(v, self._param_refusal(now, name, v)) for v in range(lo, hi + 1)
                                            if v != getattr(now, name)])
                for name, (lo, hi) in BaseParams.RANGES.items()]

    def _param_refusal(self, now: BaseParams, name: str, value: int) -> Why | None:
        problems = replace(now, **{name: value}).problems(self.players)
        return problems[0] if problems else None

    def vote_open(self) -> bool:
        """The coming deal's one vote can still be held (P-9.1: at the start of every deal, the
        first included; once per deal, P-9.5)."""
        return not self.vote_used()

    def vote_used(self) -> bool:
        return any(v.deal == self.deal_number for v in self.votes)

    def check_proposal(self, p: Proposal) -> None:
        if not 0 <= p.proposer < self.players:
            raise VoteError("the proposer must be a player of the session")
        if p.kind in ("remove", "modify", "restore"):
            r = self._rule(p.rule_id or "")
            if p.kind == "restore" and r.in_force:
                raise VoteError("that rule is in force; only a removed rule can be restored (P-9.7)")
            if p.kind != "restore" and not r.in_force:
                raise VoteError("that rule was removed; propose 'restore' to bring it back (P-9.7)")
            if p.kind == "modify":
                if p.new_rule is None:
                    raise VoteError("a modification needs the changed rule")
                self._changed_rule(r, p.new_rule)
        elif p.kind == "param":
            try:
                now = self.params_for(self.deal_number).to_json()
                BaseParams.from_json({**now, p.param: p.value}, self.players)
            except RuleError as exc:
                raise VoteError("; ".join(exc.problems)) from None

    def _changed_rule(self, r: SessionRule, new_rule: dict[str, Any]) -> dict[str, Any]:
        """A rule as a vote would change it, checked: a table rule is reworded, an engine rule
        rebuilt (each stays its kind: the builder cannot say a table rule, words cannot be enforced)."""
        if is_table_rule(r.rule) != is_table_rule(new_rule):
            raise VoteError("a table rule is changed into other words, an engine rule in the rule builder")
        try:
            if is_table_rule(new_rule):
                return table_rule(r.id, new_rule["table"], r.author)
            return parse_rule({**new_rule, "id": r.id, "author": r.author}, self.players).to_json()
        except RuleError as exc:
            raise VoteError("; ".join(exc.problems)) from None

    def hold_vote(self, proposal: Proposal, votes: dict[int, bool], throwers: Thrower | None = None,
                  defenders: list[int] | None = None, bracket_throwers: Thrower | None = None,
                  first_objector: int | None = None) -> LoptiSession:
        """P-9: one vote per deal; pass with more than half of all players; a tie goes to RPS
        (P-10), thrown by ``throwers(seat)`` (default: each seat's seeded bot throws). A bracket
        choosing the defender (P-10.4) is thrown by ``bracket_throwers`` (default: ``throwers``), so
        throws made by hand for the series are not spent in the bracket. ``first_objector``: who
        objected first to a base-rule change, as the table saw it (P-10.2; :meth:`tie_sides`)."""
        if self.vote_used():
            raise VoteError("this deal's rule vote has been used (P-9.1, P-9.5)")
        self.check_proposal(proposal)
        how = tally(votes, self.players)
        if first_objector is not None and first_objector not in self.objector_choices(proposal, votes):
            raise VoteError("the first objector is one of the players who objected to a tied base-rule change "
                            "(P-10.2)")
        rps: dict[str, Any] | None = None
        passed = how == "majority"
        if how == "tie":
            passed, rps = self._settle_tie(proposal, votes, throwers, defenders, bracket_throwers or throwers,
                                           first_objector)
        record = VoteRecord(self.deal_number, proposal, dict(votes), "passed" if passed else "failed", how, rps)
        s = replace(self, votes=(*self.votes, record))
        return s._enact(proposal) if passed else s

    def default_thrower(self, seat: int) -> Iterator[str]:
        """``seat``'s seeded throws in this deal's vote (a bot's, or a person's who lets the app throw)."""
        return seeded_thrower(derive_seed(self.seed, "rps", self.deal_number, seat))

    def _thrower(self, throwers: Thrower | None) -> Thrower:
        return throwers if throwers is not None else self.default_thrower

    def tie_sides(self, p: Proposal, votes: dict[int, bool], throwers: Thrower | None = None,
                  defenders: list[int] | None = None, first_objector: int | None = None) -> tuple[int, int | None]:
        """P-10.2: who throws in a tied vote — (proposer, defender); defender None means nobody
        defends the rule and the change passes. The proposer faces the rule's author; an absent
        author's supporters choose a defender (a bracket when they cannot agree, P-10.4). A
        base-rule change: the proposer faces the first player who objected — ``first_objector``,
        the one the table saw object first; when the table does not say (a table of bots, whose
        votes are cast together, or a vote stored before the table was asked), the first objector
        in seat order from the proposer."""
        if p.kind == "param":
            return p.proposer, first_objector if first_objector is not None else self.objector_choices(p, votes)[0]
        author = self._defending_author(p)
        if author is not None:
            return p.proposer, author
        volunteers = self._volunteers(p, votes, defenders)
        if not volunteers:
            return p.proposer, None
        return p.proposer, volunteers[0] if len(volunteers) == 1 else bracket(volunteers, self._thrower(throwers))

    def _defending_author(self, p: Proposal) -> int | None:
        """The author of the rule a proposal changes, when they can defend it: present, not the proposer."""
        r = self._rule(p.rule_id or "")
        return r.author if r.author is not None and r.author not in self.absent and r.author != p.proposer else None

    def _volunteers(self, p: Proposal, votes: dict[int, bool], defenders: list[int] | None) -> list[int]:
        """Who stepped forward to defend a rule its author cannot (P-10.2): ``defenders`` as the
        table said, else every supporter; never the proposer nor a seat that left."""
        return [i for i in (defenders if defenders is not None else [i for i in range(self.players) if not votes[i]])
                if i != p.proposer and i not in self.absent]

    def leave(self, seat: int) -> LoptiSession:
        """A person leaves the session. Their rules stay in force, so a tie on one of them is now
        defended by its supporters (P-10.2); what plays the seat in later deals is the table's
        business (the app seats a stand-in bot, so seat numbers keep their meaning)."""
        if not 0 <= seat < self.players:
            raise VoteError(f"there is no seat {seat + 1}")
        if seat in self.absent:
            raise VoteError(f"seat {seat + 1} has already left the session")
        if self.players - len(self.absent) <= 2:
            raise VoteError("a session needs at least two players present")
        return replace(self, absent=self.absent | {seat})

    def defender_choices(self, p: Proposal, votes: dict[int, bool]) -> list[int]:
        """P-10.2: who may step forward to defend a rule in a tied vote — its supporters (present
        seats that voted against the change, never the proposer) — when its author cannot: the
        author left, or is the proposer. Empty when the count is not a tie, when the author
        defends the rule themself, or for a base-rule change (the first objector faces the
        proposer). Several volunteers play the knockout of P-10.4."""
        if p.kind == "param" or tally(votes, self.players) != "tie":
            return []
        if self._defending_author(p) is not None:
            return []
        return [i for i in range(self.players) if not votes.get(i, True) and i != p.proposer and i not in self.absent]

    def objector_choices(self, p: Proposal, votes: dict[int, bool]) -> list[int]:
        """P-10.2: who may have objected first to a base-rule change in a tied vote — every seat that
        voted against it, in seat order from the proposer (the order taken when the table does not
        say who objected first). Empty for any other vote, or a count that is not a tie."""
        if p.kind != "param" or tally(votes, self.players) != "tie":
            return []
        return [i for i in ((p.proposer + k) % self.players for k in range(self.players)) if not votes[i]]

    def bracket_throwers(self, hands: dict[int, list[str]]) -> Thrower:
        """The throwers of one P-10.4 knockout: a seat that threw by hand throws its throws in the
        order made, on through the rounds; any other seat throws its seeded ones (as every seat
        did before people could throw in a knockout, so older records replay the same)."""
        going = {seat: iter(list(throws)) for seat, throws in hands.items()}
        return lambda seat: going[seat] if seat in going else self.default_thrower(seat)

    def knockout(self, volunteers: list[int], hands: dict[int, list[str]],
                 by_hand: set[int]) -> tuple[int | None, int | None]:
        """The P-10.4 knockout between ``volunteers`` as far as the throws made so far decide it:
        (the representative, None) once decided, else (None, the seat of ``by_hand`` whose throw
        is needed next). Seats not thrown by hand throw their seeded throws."""
        def need(seat: int) -> Iterator[str]:
            raise _ThrowNeeded(seat)
            yield ""  # pragma: no cover - makes this a generator

        going = {seat: chain(list(hands.get(seat, [])), need(seat)) for seat in by_hand}
        try:
            return bracket(volunteers, lambda seat: going[seat] if seat in going else self.default_thrower(seat)), None
        except _ThrowNeeded as wanted:
            return None, wanted.seat

    def _settle_tie(self, p: Proposal, votes: dict[int, bool], throwers: Thrower | None,
                    defenders: list[int] | None, bracket_throwers: Thrower | None,
                    first_objector: int | None) -> tuple[bool, dict[str, Any]]:
        throw = self._thrower(throwers)
        proposer, defender = self.tie_sides(p, votes, bracket_throwers, defenders, first_objector)
        if defender is None:
            return True, {"defender": None, "note": "nobody defended the rule: the change passes"}
        result = series(zip(throw(proposer), throw(defender), strict=False))
        out = {"proposer": proposer, "defender": defender, "score": list(result.score), "throws": len(result.throws)}
        volunteers = [] if p.kind == "param" or self._defending_author(p) is not None else \
            self._volunteers(p, votes, defenders)
        if len(volunteers) > 1:  # the defender won the knockout between these (P-10.4)
            out["knockout"] = volunteers
        return result.winner == 0, out

    def _enact(self, p: Proposal) -> LoptiSession:
        start = self.deal_number if p.when == "now" else self.deal_number + 1
        note = f"vote in deal {self.deal_number} ({p.when})"
        if p.kind == "param":
            assert p.param is not None and p.value is not None
            return replace(self, param_changes=(*self.param_changes, (start, p.param, p.value)))
        r = self._rule(p.rule_id or "")
        if p.kind == "remove":
            new = replace(r, status=REMOVED, removed_from=start, history=(*r.history, f"removed by {note}"))
        elif p.kind == "restore":
            new = replace(r, status=ACTIVE, active_from_deal=start, previous=None, removed_from=None,
                          history=(*r.history, f"restored by {note}"))
        else:
            assert p.new_rule is not None
            rule = self._changed_rule(r, p.new_rule)
            new = replace(r, rule=rule, status=MODIFIED, active_from_deal=start,
                          previous=r.version_for(self.deal_number), history=(*r.history, f"modified by {note}"))
        return replace(self, rules=self._replace_rule(new))

    # --- sessions -------------------------------------------------------------------------------

    def new_session(self, seed: int, keep: dict[str, dict[int, bool]] | None = None,
                    brought: Sequence[Brought] = ()) -> LoptiSession:
        """P-11: a new session starts with base rules only; an old rule comes back only with a
        majority at setup (these votes do not use the first deal's vote, P-11.2). ``keep``: the
        votes on this session's rules; ``brought``: any other old rule (#36 item 6: from an
        earlier session at this table, or the device's library), each with its author (None: from
        the library) and votes. A brought rule is checked as a winner's is; one whose id is taken
        gets a new one."""
        kept = []
        keep = keep or {}
        for rule_id in keep:
            self._rule(rule_id)  # an unknown rule is refused
        for r in self.rules:  # kept rules keep their creation order, whatever order the votes came in
            votes = keep.get(r.id)
            if votes is not None and tally(votes, self.players) == "majority":
                kept.append(SessionRule(r.rule, r.author, ACTIVE, 0, ("kept from an earlier session",)))
        for rule, author, votes in brought:
            checked = self._brought_rule(rule, author, {r.id for r in kept})
            if tally(votes, self.players) == "majority":
                kept.append(SessionRule(checked, author, ACTIVE, 0, ("brought back at setup",)))
        return LoptiSession(self.players, seed, self.first_dealer, self.options, rules=tuple(kept))

    def fits(self, rule: Any, author: int | None) -> bool:
        """Whether an old rule could be brought back at this table (a library rule may have been
        written for more seats, or be damaged)."""
        try:
            self._brought_rule(rule, author, set())
        except VoteError:
            return False
        return True

    def _brought_rule(self, rule: Any, author: int | None, taken: set[str]) -> dict[str, Any]:
        """An old rule brought back at setup, checked (VoteError), under an id not yet taken."""
        if author is not None and not 0 <= author < self.players:
            raise VoteError(f"there is no seat {author + 1} at this table")
        if not isinstance(rule, dict):
            raise VoteError("a rule brought back is a rule")
        rule_id, n = str(rule.get("id") or "old"), 2
        fresh = rule_id
        while fresh in taken:
            fresh, n = f"{rule_id}-{n}", n + 1
        try:
            if is_table_rule(rule):
                return table_rule(fresh, rule["table"], author)
            return parse_rule({**rule, "id": fresh, "author": author}, self.players).to_json()
        except RuleError as exc:
            raise VoteError("; ".join(exc.problems)) from None

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "seed": self.seed, "first_dealer": self.first_dealer,
                "results": [list(r) for r in self.results], "rules": [r.to_json() for r in self.rules],
                "param_changes": [list(c) for c in self.param_changes], "votes": [v.to_json() for v in self.votes],
                "absent": sorted(self.absent)}


def apply_now(state: LoptiState, session: LoptiSession) -> LoptiState:
    """After a vote that applies 'now' (P-9.6): the running deal continues under the new rules from
    its next action. Completed card actions are never reversed: only the options change."""
    s = state.clone()
    s.options = session.deal_options()
    return s


def bot_rule(session: LoptiSession, seat: int, seed: int) -> dict[str, Any]:
    """A bot winner's new rule: a template not yet in the session, chosen from a seeded source."""
    from engine.lopti.templates import TEMPLATES

    used = {r.id for r in session.rules}
    free = [t for t in TEMPLATES if f"{t['id']}-{seat}" not in used and t["id"] not in used]
    pick = free[Rng(derive_seed(seed, "bot-rule", session.deal_number, seat)).below(len(free))]
    return {**pick, "id": f"{pick['id']}-{seat}"}


PENALTIES = {"draw", "give", "skip"}


def bot_brings_back(author: int | None, seat: int) -> bool:
    """A bot's vote on an old rule at a new session's setup (P-11.2), as ``bot_vote`` restores a
    rule: yes only to a rule it wrote (a library rule has no author here, so no bot brings it)."""
    return author == seat


def bot_vote(session: LoptiSession, proposal: Proposal, seat: int) -> bool:
    """The bots' voting heuristic (documented in docs/house_rules.md):

    * a bot supports its own proposals and defends its own rules;
    * it votes to remove or change someone else's rule when that rule punishes players (draw, give
      or skip effects) and the bot has won fewer deals than the average player — a rule that
      punishes hurts whoever is behind;
    * it restores a rule only if it wrote it;
    * a base-parameter change passes its vote when the bot is behind in deal wins (change helps
      whoever is losing), otherwise it keeps the base rules.
    """
    if proposal.proposer == seat:
        return True
    wins = session.winners
    behind = wins.count(seat) * session.players < len(wins)
    if proposal.kind == "param":
        return behind
    r = session._rule(proposal.rule_id or "")
    if r.author == seat:
        return proposal.kind == "restore"
    if proposal.kind == "restore":
        return False
    punishes = any(e.get("effect") in PENALTIES for e in r.rule.get("do", []))
    return punishes and (behind or not wins)
