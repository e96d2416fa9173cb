"""Make the bundled card faces drawable by Flutter's SVG renderer (run once, by hand; the output is
committed). ``python assets/cards/flatten.py SOURCE_DIR`` reads the original faces (Adrian Kennard's
CC0 cards, as shipped in the MIT-licensed npm package ``@heruka_urgyen/react-playing-cards`` 0.5.0,
folders ``2color-bf`` and ``4color-bf``: the large-index faces) and writes ``classic/`` and
``four_colour/`` beside this file.

Why: the originals draw every pip, index and court half as ``<use>`` of a ``<symbol>`` sized only by
its height. Flutter's renderer (flutter_svg) does not size a symbol by its viewBox, so each card came
out as one block of its suit's colour. Here each ``<use>`` becomes a ``<g transform=…>`` holding a
copy of what it refers to — the same picture, drawn the same way in every browser — and the
symbols and defs are dropped. Nothing else changes.

Then each court card's lower half, a copy of the upper one turned half a circle, becomes a ``<use>``
of the upper half's ``<g>`` (flutter_svg draws a ``<use>`` of a plain group exactly as the copy:
the same pixels; only a symbol's sizing was wrong). That halves the courts' files (KS: 125 → 64 KB):
what a phone downloads and ``flet build`` packs. Decoding a face costs the client as much as
before (``tests/bench_faces.py``, #44). ``python assets/cards/flatten.py --share-halves`` applies
that step alone to the committed faces.
"""

from __future__ import annotations

import copy
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)
HREF = f"{{{XLINK}}}href"
SETS = {"2color-bf": "classic", "4color-bf": "four_colour"}
NAMES = {"T": "10"}  # the faces are stored under the engine's card names: 10H, not TH


def _tag(el: ET.Element) -> str:
    return el.tag.split("}")[-1]


def _viewport(use: ET.Element, target: ET.Element) -> str:
    """The transform that places ``target`` (a symbol) where ``use`` puts it (SVG 1.1, 5.6/7.8).
    A missing width is wider than the symbol, so the height decides the scale; xMin alignment
    then puts it at x, and a square symbol fills its height exactly (these faces' case)."""
    x, y = float(use.get("x", 0)), float(use.get("y", 0))
    vb = [float(v) for v in target.get("viewBox", "0 0 1 1").split()]
    h = float(use.get("height", vb[3]))
    if target.get("preserveAspectRatio") == "none" and use.get("width"):
        sx, sy = float(use.get("width", vb[2])) / vb[2], h / vb[3]
    else:
        sx = sy = h / vb[3]
        if use.get("width"):
            sx = sy = min(sx, float(use.get("width", 0)) / vb[2])
    return f"translate({x:g},{y:g})scale({sx:g},{sy:g})translate({-vb[0]:g},{-vb[1]:g})"


def _expand(el: ET.Element, ids: dict[str, ET.Element]) -> None:
    for i, child in enumerate(list(el)):
        if _tag(child) == "use":
            el[i] = _inline(child, ids)
        else:
            _expand(child, ids)


def _inline(use: ET.Element, ids: dict[str, ET.Element]) -> ET.Element:
    target = ids[(use.get(HREF) or "").lstrip("#")]
    group = ET.Element(f"{{{SVG}}}g")
    for name in ("fill", "stroke"):
        if use.get(name):
            group.set(name, use.get(name, ""))
    if _tag(target) == "symbol":
        parts = [use.get("transform", ""), _viewport(use, target)]
        children = [copy.deepcopy(c) for c in target]
    else:  # a plain element in <defs>: moved by x, y
        parts = [use.get("transform", ""), f"translate({use.get('x', '0')},{use.get('y', '0')})"]
        clone = copy.deepcopy(target)
        clone.attrib.pop("id", None)
        children = [clone]
    group.set("transform", "".join(parts))
    for c in children:
        group.append(c)
    _expand(group, ids)
    return group


def share_halves(root: ET.Element) -> ET.Element:
    """Replace each group that repeats its elder sibling turned by ``rotate(180)`` with a ``<use>``
    of that sibling (given an id ``h1``, ``h2``, …). Idempotent: a ``<use>`` is never a copy."""
    kids, n = list(root), 0
    for upper, lower in zip(kids, kids[1:], strict=False):
        turned = lower.get("transform") == "rotate(180)" + upper.get("transform", "")
        if _tag(upper) != "g" or _tag(lower) != "g" or not turned or len(upper) != len(lower):
            continue
        if any(ET.tostring(a) != ET.tostring(b) for a, b in zip(upper, lower, strict=True)):
            continue
        n += 1
        upper.set("id", f"h{n}")
        use = ET.Element(f"{{{SVG}}}use", {HREF: f"#h{n}", "transform": "rotate(180)"})
        root[list(root).index(lower)] = use
    return root


def flatten(source: Path) -> str:
    root = ET.parse(source).getroot()
    ids = {el.get("id", ""): el for el in root.iter() if el.get("id")}
    for el in list(root):
        if _tag(el) in ("symbol", "defs"):
            root.remove(el)
    _expand(root, ids)
    share_halves(root)
    for name in ("class", "face"):
        root.attrib.pop(name, None)
    root.set("width", "240")
    root.set("height", "336")
    return ET.tostring(root, encoding="unicode")


def main(source_dir: str) -> None:
    here = Path(__file__).resolve().parent
    for folder, style in SETS.items():
        out = here / style
        out.mkdir(exist_ok=True)
        for src in sorted((Path(source_dir) / folder).glob("*.svg")):
            rank, suit = src.stem[:-1], src.stem[-1]
            name = "JK" if suit == "J" else NAMES.get(rank, rank) + suit
            (out / f"{name}.svg").write_text(flatten(src) + "\n", encoding="utf-8")


def share_committed() -> None:
    """The halves step alone, on the faces already committed beside this file."""
    here = Path(__file__).resolve().parent
    for style in SETS.values():
        for face in sorted((here / style).glob("*.svg")):
            root = share_halves(ET.parse(face).getroot())
            face.write_text(ET.tostring(root, encoding="unicode") + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1] == "--share-halves":
        share_committed()
    else:
        main(sys.argv[1])
