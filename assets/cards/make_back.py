"""Draw the card back, ``back.svg`` beside this file (run once by hand; the output is committed).

Our own drawing, under the project's licence: a navy field with a lattice of diamonds inside a
white border, the size and corner of the bundled faces (240 × 336, corner 12). Plain paths only,
so Flutter's SVG renderer draws it exactly as a browser does."""

from __future__ import annotations

from pathlib import Path

W, H, INSET, STEP = 240, 336, 14, 24
FIELD, LINE, EDGE = "#1A237E", "#5C6BC0", "#9E9E9E"


def _clip(x0: float, y0: float, dx: float, dy: float) -> tuple[float, float, float, float] | None:
    """The part of the line through (x0, y0) with direction (dx, dy) inside the lattice rectangle."""
    lo, hi = -1e9, 1e9
    for p, d, a, b in ((x0, dx, INSET, W - INSET), (y0, dy, INSET, H - INSET)):
        t1, t2 = (a - p) / d, (b - p) / d
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    if lo >= hi:
        return None
    return x0 + lo * dx, y0 + lo * dy, x0 + hi * dx, y0 + hi * dy


def svg() -> str:
    lines = []
    for k in range(-H, W + H, STEP):
        for dx in (1, -1):
            seg = _clip(k, 0, dx, 1)
            if seg:
                lines.append("M{:.1f} {:.1f}L{:.1f} {:.1f}".format(*seg))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">'
            f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="12" ry="12" fill="white" stroke="{EDGE}"/>'
            f'<rect x="{INSET - 4}" y="{INSET - 4}" width="{W - 2 * INSET + 8}" height="{H - 2 * INSET + 8}" rx="8" '
            f'ry="8" fill="{FIELD}"/>'
            f'<path d="{"".join(lines)}" stroke="{LINE}" stroke-width="2" fill="none"/>'
            f'<circle cx="{W / 2}" cy="{H / 2}" r="34" fill="{FIELD}" stroke="white" stroke-width="4"/>'
            f'<path d="M120 140C120 140 96 158 96 172C96 182 106 188 116 182L112 196H128L124 182C134 188 144 182 '
            f'144 172C144 158 120 140 120 140Z" fill="white"/></svg>\n')


if __name__ == "__main__":
    (Path(__file__).resolve().parent / "back.svg").write_text(svg(), encoding="utf-8")
