"""The rule vote (P-9): proposals, the tally, and the bots' documented voting heuristic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PROPOSAL_KINDS = ("remove", "modify", "param", "restore")
WHEN = ("now", "next_deal")


class VoteError(ValueError):
    """A vote that the procedure does not allow (second vote in a deal, unknown rule…)."""


@dataclass(frozen=True)
class Proposal:
    kind: str
    proposer: int
    when: str = "next_deal"
    rule_id: str | None = None
    new_rule: dict[str, Any] | None = None
    param: str | None = None
    value: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    @staticmethod
    def from_json(obj: Any) -> Proposal:
        if not isinstance(obj, dict):
            raise VoteError("a proposal is an object")
        if obj.get("kind") not in PROPOSAL_KINDS:
            raise VoteError(f"kind is one of {', '.join(PROPOSAL_KINDS)}")
        if obj.get("when", "next_deal") not in WHEN:
            raise VoteError("when is 'now' or 'next_deal' (P-9.6)")
        allowed = {"kind", "proposer", "when", "rule_id", "new_rule", "param", "value"}
        if set(obj) - allowed:
            raise VoteError(f"unknown field(s): {', '.join(sorted(set(obj) - allowed))}")
        return Proposal(**obj)


@dataclass(frozen=True)
class VoteRecord:
    deal: int
    proposal: Proposal
    votes: dict[int, bool]
    outcome: str  # "passed" | "failed"
    tally: str  # "majority" | "minority" | "tie"
    rps: dict[str, Any] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "proposal": self.proposal.to_json(),
                "votes": {str(k): v for k, v in self.votes.items()}, "outcome": self.outcome,
                "tally": self.tally, "rps": self.rps}


def votes_to_pass(players: int) -> int:
    """P-9.2: the fewest yes votes that pass a proposal at a session of ``players`` — more than half
    of all of them (what the session screens say before a vote)."""
    return players // 2 + 1


def tally(votes: dict[int, bool], players: int) -> str:
    """P-9.2: passes only with more than half of *all* session players (out players included);
    P-10.1 [interp]: equal yes and no is a tie, settled by RPS."""
    if set(votes) != set(range(players)):
        raise VoteError("every player in the session votes, including players who are out (P-9.2)")
    yes = sum(votes.values())
    no = players - yes
    if yes >= votes_to_pass(players):
        return "majority"
    if yes == no:
        return "tie"
    return "minority"
