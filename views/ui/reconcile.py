"""Updates in place: a table describes itself afresh from the observation (readable, one function
per part, like a declarative component), and ``reconcile`` makes the controls already on screen
look like that description — changing only the properties that differ. The controls on screen are
long-lived: Flet sends only what changed, and a table may still touch a control after building it
(the Spit countdown, an arrival's second frame) because nothing is ever frozen.

Why not Flet's own keyed reconciliation: it diffs the new description as *frozen* controls, and a
frozen control raises when it is changed later — which the arrival motion and the Spit ticker do.
Why not hand-written "update this text" code per table: it drifts from the build code, and a
forgotten property is a stale screen. Here the build code is the only description of the screen.

Matching: a control the table keeps itself (already placed once) is used as it is; otherwise two
controls match when they are of the same type with the same ``key`` (and the same ``anew_when``
mark). A list of children matches by what each child is when every new child is marked with
``keyed`` (a card and which copy of it: a card arriving at the head of a hand leaves the others'
controls alone, and Flet sends a move), else position by position. A matched control keeps its
identity (its ``_i`` on the client); an unmatched one is replaced by the new description. Event handlers are taken over
silently when both sides have one (the client only knows *that* a control answers a tap), so a
fresh lambda per build costs nothing on the wire.

Two rules for the descriptions this works on:
* a control stands in one place only (a Draggable's ghost is its own control, not the card's):
  updates address controls by id, so a second place would show a stale copy (a screen test checks
  every table for it);
* a semantics node with an identifier whose contents change (a lane's cards, a pile's top card,
  the card at a hand position) is marked with what it shows (``anew_when``), so it is built anew
  when that changes: Flutter's web semantics otherwise drops the identifier, and tests and screen
  readers lose the node (only a browser shows it: the smoke tier's whole match and Spit round).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TypeVar, cast

import flet as ft
from flet.controls.base_control import BaseControl

_UNSET = object()
#: a control with this many changed controls under it is sent whole (as is one changed itself), not
#: part by part: each message costs the client a patch and a rebuild of its own, and a selection changed
#: ~16 parts of a Lanes table (each target lane's border, glow and name) — one message per lane
#: costs the browser less than four (#44; ``tests/bench_ui.py``), and Flet's diff of a sent
#: control still carries only the properties that changed
WHOLE_AT = 3
T = TypeVar("T")
#: a control (or, in a list of children, whatever Flet put there)
C = TypeVar("C")


def reconcile(old: object, new: C, changed: list[BaseControl] | None = None) -> C:
    """The control to show for ``new``: ``old`` updated in place when they match, else ``new``.
    Every control given a new property or new children is appended to ``changed``."""
    if old is new:
        return old
    if getattr(new, "_parent", None) is not None:
        return new  # a long-lived control the table keeps (a status line): it is used as it is
    if type(old) is not type(new) or not isinstance(old, BaseControl) or not isinstance(new, BaseControl) \
            or old.key != new.key:
        return new
    if getattr(old, "_shows", None) != getattr(new, "_shows", None):
        return new  # marked by ``anew_when``: what it shows changed, so it is built anew
    out = changed if changed is not None else []
    first = len(out)
    itself = _props(old, new, out) | _structure(old, new, out)
    if itself or len(out) - first >= WHOLE_AT:
        del out[first:]  # sending it sends them: Flet diffs it once, its changes in one message
        out.append(old)
    return cast("C", old)  # of new's very type (checked above)


def anew_when(control: T, shows: object) -> T:
    """Mark ``control`` to be built anew (not updated in place) whenever ``shows`` changes.
    (Not Flet's ``key``: Flet diffs keyed controls as frozen, and frozen controls refuse the
    in-place updates that come later.)"""
    object.__setattr__(control, "_shows", shows)
    return control


def keyed(control: T, key: object) -> T:
    """Mark ``control``, a child in a list, with what it is (``key``, unique among its siblings):
    the list's children then match by it, wherever they stand."""
    object.__setattr__(control, "_match", key)
    return control


def reconcile_list(old: Sequence[object], new: Sequence[C], changed: list[BaseControl] | None = None) -> list[C]:
    """Children for ``new``: each keeps the control already shown for the same key (``keyed``, when
    every new child has one) or else at the same position."""
    keys = [getattr(n, "_match", _UNSET) for n in new]
    if new and _UNSET not in keys:
        shown = {getattr(o, "_match", _UNSET): o for o in old}
        shown.pop(_UNSET, None)
        # each control shown is taken once (a key given twice would put one control in two places)
        return [reconcile(shown.pop(k), n, changed) if k in shown else n for k, n in zip(keys, new, strict=True)]
    out = [reconcile(o, n, changed) for o, n in zip(old, new, strict=False)]
    out.extend(new[len(old):])
    return out


def update_children(parent: object, children: Sequence[object], field: str = "controls",
                    changed: list[BaseControl] | None = None) -> bool:
    """Put ``children`` under ``parent`` (``parent.controls`` by default), reusing what is there;
    True when the list itself changed (a child added, removed or replaced)."""
    current: list[object] = getattr(parent, field)
    kept = reconcile_list(current, children, changed)
    if len(kept) != len(current) or any(a is not b for a, b in zip(kept, current, strict=True)):
        current[:] = kept  # the same list object: Flet diffs it against what the client has
        return True
    return False


def _props(old: BaseControl, new: BaseControl, changed: list[BaseControl]) -> bool:
    events: frozenset[str] = getattr(type(old), "_event_fields", frozenset())  # set by Flet's @control
    defaults: dict[str, object] = getattr(type(old), "_prop_defaults", {})
    mine: dict[str, object] = old._values
    theirs: dict[str, object] = new._values
    touched = False
    for name in mine.keys() | theirs.keys():
        default = defaults.get(name)
        was, now = mine.get(name, default), theirs.get(name, default)
        if was is now:
            continue
        if name in events:
            if (was is None) == (now is None):
                mine[name] = now  # same on the wire: swap the handler without a patch
                continue
        elif isinstance(was, BaseControl) and isinstance(now, BaseControl):
            now = reconcile(was, now, changed)
            if now is was:
                continue
        elif was == now:
            continue
        setattr(old, name, now)
        touched = True
    return touched


def _structure(old: BaseControl, new: BaseControl, changed: list[BaseControl]) -> bool:
    touched = False
    structural: frozenset[str] = getattr(type(old), "_structural_fields", frozenset())
    for name in structural:
        if name.startswith("_"):
            continue
        was, now = getattr(old, name, _UNSET), getattr(new, name, _UNSET)
        if was is now or now is _UNSET:
            continue
        if isinstance(was, list) and isinstance(now, list) and any(isinstance(c, BaseControl) for c in was + now):
            touched |= update_children(old, now, name, changed)
        elif was != now:
            setattr(old, name, now)
            touched = True
    return touched


def show(root: BaseControl, children: Sequence[BaseControl], update: bool = True) -> None:
    """``children`` under ``root`` in place; when ``update`` (and ``root`` is on a page), only the
    controls that changed are sent — Flet then diffs those few, not the whole table."""
    changed: list[BaseControl] = []
    if update_children(root, children, changed=changed):
        changed = [root]
    if update:
        send(*changed)


def send(*controls: BaseControl) -> None:
    """Send ``controls`` to the client: the ones ``show`` found changed, or long-lived ones a screen
    changed in place (a status line, a clock). Flet diffs each against what the client has, so only
    their changes travel. The one place views/ asks Flet to update (a test holds it): a screen
    never sends the whole page, which would diff every control on it. ``send(page)`` is for
    navigation only (the page's views changed). Controls not on a page (being built, or left
    this instant) are skipped."""
    for c in controls:
        with contextlib.suppress(RuntimeError):  # not on a page yet, or any more
            if isinstance(c, ft.Page):
                c.update()
            else:
                c.page.update(cast("ft.Control", c))
