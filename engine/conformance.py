"""``python -m engine.conformance``: the JSON-lines interface of every engine (conformance.md).

One request per input line → one response per output line, in order, nothing else on stdout.
Nothing a line contains can stop the loop: every failure becomes ``ok: false`` with an error code.
"""

from __future__ import annotations

import io
import json
import sys
import traceback
from typing import Any, TextIO

from engine.core import BadPosition, BadRequest, EngineError
from engine.games import GAMES, rules_for

REQUEST_KEYS = {"id", "game", "options", "position", "actions", "want", "bot"}
WANTS = ("state", "legal", "events")


def _fail(rid: Any, error: EngineError, state: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": rid, "ok": False, "error": error.to_json()}
    if state is not None:
        out["state"] = state
    return out


def _want(req: dict[str, Any]) -> tuple[str, ...]:
    want = req.get("want", list(WANTS))
    if not isinstance(want, list) or not all(isinstance(w, str) and w in WANTS for w in want):
        raise BadRequest(f"want must be a list drawn from {list(WANTS)}")
    return tuple(want)


def handle(req: Any) -> dict[str, Any]:
    """Answer one request object."""
    if not isinstance(req, dict):
        return _fail(None, BadRequest("a request must be a JSON object"))
    rid = req.get("id")
    try:
        rules, want, state, actions, events = _load(req)
    except EngineError as exc:
        return _fail(rid, exc)
    for i, raw in enumerate(actions):
        try:
            state = _step(rules, state, raw, i, events)
        except EngineError as exc:
            if isinstance(exc, BadPosition):  # a position problem found late is still the request's
                return _fail(rid, exc)
            exc.index = i
            return _fail(rid, exc, rules.position_to_json(state))
    out: dict[str, Any] = {"id": rid, "ok": True}
    if "state" in want:
        out["state"] = rules.position_to_json(state)
    if "legal" in want:
        out["legal"] = legal_json(rules, state)
    if "events" in want:
        out["events"] = events
    if "bot" in req:
        try:
            out["bot_action"] = _bot_action(rules, state, req["bot"])
        except EngineError as exc:
            return _fail(rid, exc, rules.position_to_json(state))
    return out


def _step(rules: Any, state: Any, raw: Any, i: int, events: list[Any]) -> Any:
    """Action ``i`` of the request applied; its events added (a Spit rejection names the action)."""
    state, evs = rules.apply(state, rules.parse_action(raw, state))
    for e in evs:
        data = e.to_json()
        if data["type"] == "rejected":  # Spit: name the request's action, not the reason code
            data = {"type": "rejected", "player": data.get("player"), "index": i}
        events.append(data)
    return state


def _load(req: dict[str, Any]) -> tuple[Any, Any, Any, list[Any], list[Any]]:
    """The request's rules, what it wants, its loaded position (with the events of loading it) and
    its actions; raises the request's own error."""
    unknown = set(req) - REQUEST_KEYS
    if unknown:
        raise BadRequest(f"unknown request key(s): {', '.join(sorted(unknown))}")
    game = req.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise BadRequest(f"game must be one of {', '.join(GAMES)}")
    want = _want(req)
    try:
        rules = rules_for(game)
    except (ImportError, AttributeError):
        raise BadRequest(f"the {game} engine is not available in this build") from None
    options = rules.parse_options(req.get("options", {}))
    if "position" not in req:
        raise BadRequest("request needs a position")
    actions = req.get("actions", [])
    if not isinstance(actions, list):
        raise BadRequest("actions must be a list")
    state = rules.position_from_json(options, req["position"])
    events: list[Any] = []
    if hasattr(rules, "normalise"):
        state, load_events = rules.normalise(state)
        events.extend(e.to_json() for e in load_events)
    return rules, want, state, actions, events


def legal_json(rules: Any, state: Any) -> Any:
    if hasattr(rules, "legal_json"):
        return rules.legal_json(state)
    return [rules.action_to_json(a) for a in rules.legal_actions(state)]


def _bot_action(rules: Any, state: Any, spec: Any) -> Any:
    from engine.bots import choose_action  # bots are optional for the rules questions

    if not isinstance(spec, dict):
        raise BadRequest("bot must be an object like {\"level\": \"casual\", \"seed\": 1}")
    return choose_action(rules, state, spec)


def run(inp: TextIO, out: TextIO) -> None:
    for line in inp:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            resp = _fail(None, BadRequest(f"not valid JSON: {exc}"))
        else:
            try:
                resp = handle(req)
            except Exception as exc:  # noqa: BLE001 - the interface must never crash; report an engine fault
                traceback.print_exc(file=sys.stderr)
                rid = req.get("id") if isinstance(req, dict) else None
                resp = _fail(rid, BadRequest(f"internal error while handling the request: {exc!r}"))
        out.write(json.dumps(resp, ensure_ascii=False) + "\n")
        out.flush()


def main() -> None:
    if isinstance(sys.stdout, io.TextIOWrapper):  # a real stream: the interface speaks UTF-8
        sys.stdout.reconfigure(encoding="utf-8")
    run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
