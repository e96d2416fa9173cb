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
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, TypeVar, cast

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
    object.__setattr__(new, "_became", old)  # what shows ``new`` on screen (``Parts`` asks)
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


class Parts:
    """The parts of a screen kept from one ``show`` to the next while what they are drawn from is
    the same. A table describes itself afresh on every refresh, and most taps change few of its
    parts (a selection lifts one hand card); but building a Flet control sets each of its ~50
    fields through Flet's descriptors (~15-20 us a control), and describing the parts that had not
    changed was a fifth to a quarter of a tap's time on the server (#44, docs/app.md "Kept parts").

    ``part(slot, drawn_from, build)`` gives the control on screen at ``slot`` when ``drawn_from``
    equals what it was drawn from at the last ``show``, else ``build()``; ``show(..., parts=)``
    then notes which control shows each part (every ``show`` of the root must pass its parts: a
    part not described in a show is forgotten). ``drawn_from`` must hold everything ``build``
    reads: a forgotten input is a stale screen, so with ``Parts.check`` on (the screen tests) every
    kept part is built anyway and compared with the kept control, and a difference raises."""

    #: build every kept part anyway and raise when it differs (on in tests/views, by its conftest)
    check: ClassVar[bool] = False

    def __init__(self) -> None:
        self._shown: dict[Hashable, tuple[object, BaseControl]] = {}
        self._now: dict[Hashable, tuple[object, BaseControl]] = {}

    def part(self, slot: Hashable, drawn_from: object, build: Callable[[], C]) -> C:
        """The control for the part at ``slot`` (unique in the screen), drawn from ``drawn_from``."""
        kept = self._shown.get(slot)
        if kept is not None and kept[0] == drawn_from:
            if Parts.check:
                stale = differs(kept[1], build(), str(slot))
                if stale is not None:
                    raise AssertionError(f"a kept part is stale (its drawn_from misses an input): {stale}")
            self._now[slot] = kept
            return cast("C", kept[1])
        built = build()
        if not isinstance(built, BaseControl):
            raise TypeError(f"a part is a control, not {built!r}")
        self._now[slot] = (drawn_from, built)
        return built

    def shown(self) -> None:
        """After a show: each part described in it is shown by the control it became."""
        self._shown = {slot: (drawn, _became(c)) for slot, (drawn, c) in self._now.items()}
        self._now = {}


class Same:
    """In what a part is drawn from: another part, equal only to itself (``Same(card)``: the spot
    holding that very card control). Holding it keeps it alive, so no later control takes its id."""

    __slots__ = ("control",)

    def __init__(self, control: object) -> None:
        self.control = control

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.control is self.control

    __hash__ = None  # type: ignore[assignment]  # compared, never a key


def _became(control: BaseControl) -> BaseControl:
    shown = getattr(control, "_became", None)
    return control if shown is None else _became(shown)


def differs(shown: object, built: object, path: str = "") -> str | None:
    """Where ``built`` would show something other than ``shown`` (None: nowhere), as ``reconcile``
    compares them: properties, children, ``anew_when`` marks, and only whether a handler is set."""
    if isinstance(shown, list) and isinstance(built, list):
        if len(shown) != len(built):
            return f"{path}: {len(shown)} children, {len(built)} described"
        return next((d for i, (a, b) in enumerate(zip(shown, built, strict=True))
                     if (d := differs(a, b, f"{path}[{i}]")) is not None), None)
    if not isinstance(shown, BaseControl) or not isinstance(built, BaseControl):
        return None if shown == built else f"{path}: {shown!r} shown, {built!r} described"
    if type(shown) is not type(built) or getattr(shown, "_shows", None) != getattr(built, "_shows", None):
        return f"{path}: {type(shown).__name__} shown, {type(built).__name__} described"
    events: frozenset[str] = getattr(type(shown), "_event_fields", frozenset())
    defaults: dict[str, object] = getattr(type(shown), "_prop_defaults", {})
    for name in sorted(shown._values.keys() | built._values.keys()):
        a, b = shown._values.get(name, defaults.get(name)), built._values.get(name, defaults.get(name))
        found = ((None if (a is None) == (b is None) else f"{path}.{name}: a handler on one side only")
                 if name in events else differs(a, b, f"{path}.{name}"))
        if found is not None:
            return found
    structural: frozenset[str] = getattr(type(shown), "_structural_fields", frozenset())
    return next((d for name in sorted(structural) if not name.startswith("_")
                 and (d := differs(getattr(shown, name), getattr(built, name), f"{path}.{name}")) is not None), None)


def show(root: BaseControl, children: Sequence[BaseControl], update: bool = True, parts: Parts | None = None) -> None:
    """``children`` under ``root`` in place; when ``update`` (and ``root`` is on a page), only the
    controls that changed are sent — Flet then diffs those few, not the whole table. ``parts``:
    the parts kept for this root (``Parts``), told which controls now show them."""
    changed: list[BaseControl] = []
    if update_children(root, children, changed=changed):
        changed = [root]
    if parts is not None:
        parts.shown()
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
