"""Table rules: a house rule in the players' own words (#36 item 1; P-13: the app cannot judge
free text).

The winner may write a rule the rule builder's catalogue cannot say. The engine cannot enforce
it, so a table rule never reaches a deal's options: it changes no legal action, fires nothing,
and bots ignore it — the table keeps it (plays it by hand). Otherwise it is a session rule like
the others (P-8 … P-11): written by the deal's winner, voted on (removed, reworded, restored),
deleted by its author without a vote, carried into a new session by a majority.

A table rule is the dict ``{"id": …, "table": words}``; the words are kept as written (the
author's language, never translated), with runs of white space made one space.
"""

from __future__ import annotations

import unicodedata
from typing import Any, TypeGuard

from engine.lopti.house_rules import RuleError

#: the longest table rule, in characters: a sentence or two, readable at a glance on a phone
MAX_CHARS = 200


def is_table_rule(rule: Any) -> TypeGuard[dict[str, Any]]:
    """Whether a session rule's dict is a table rule (words) rather than an engine rule."""
    return isinstance(rule, dict) and "table" in rule


def table_words(words: Any) -> str:
    """The words of a table rule as kept: one line, 1 to :data:`MAX_CHARS` characters, no control
    characters (format marks such as a right-to-left mark stay). Raises :class:`RuleError`."""
    if not isinstance(words, str):
        raise RuleError(["a table rule is written in words"])
    kept = " ".join(words.split())
    problems = []
    if not kept:
        problems.append("a table rule needs words")
    if len(kept) > MAX_CHARS:
        problems.append(f"a table rule has at most {MAX_CHARS} characters ({len(kept)} given)")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in kept):
        problems.append("a table rule cannot hold control characters")
    if problems:
        raise RuleError(problems)
    return kept


def table_rule(rule_id: str, words: Any, author: int | None = None) -> dict[str, Any]:
    """A checked table rule's dict (``author`` is stored with it, like an engine rule's)."""
    if not isinstance(rule_id, str) or not rule_id:
        raise RuleError(["a rule needs an id"])
    return {"id": rule_id, "table": table_words(words), "author": author}
