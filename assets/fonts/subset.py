"""Make the app's one bundled font, ``CardTable.ttf`` (run from the project root):

    .venv/bin/python assets/fonts/subset.py SOURCE_DIR

Why one small file: a Flet page loads its registered fonts one after another before its first
screen settles, and each load re-lays out every text. Three full fonts (1.5 MB) held a cold start
back by ~0.4 s; Latin and Vietnamese need none (the web client carries Roboto, which covers
both, and a phone or desktop has its own font), so what is left is what those fonts lack:
* the Arabic script, from Noto Sans Arabic: the Arabic blocks, their presentation forms, the
  marks and punctuation Arabic text uses, with every layout feature (letters join, marks sit);
* the symbols the app shows, from DejaVu Sans: suits, arrows, the star, ticks, ≥, scaled to
  Noto's 1000 units per em.
No hinting (Flutter does not use it).

SOURCE_DIR holds the full fonts as released: ``NotoSansArabic-Regular.ttf`` (Noto, version 2.005,
notofonts.github.io) and ``DejaVuSans.ttf`` (DejaVu 2.37; Debian's fonts-dejavu-core has it in
/usr/share/fonts/truetype/dejavu). Both are in this repository's history:
``git show d464f15:assets/fonts/NotoSansArabic-Regular.ttf``. The licences (SIL OFL 1.1 for Noto,
which reserves no font name; Bitstream Vera for DejaVu, whose only naming rule is to keep
"Bitstream" and "Vera" out of a changed font's name) allow this cut; both sit beside it.

``tests/views/test_table_look.py`` checks that every character of the app's texts is in this
font or in Roboto.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fontTools import merge, subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.scaleUpem import scale_upem

HERE = Path(__file__).resolve().parent
OUT = HERE / "CardTable.ttf"
ARABIC = ("NotoSansArabic-Regular.ttf", "U+00A0,U+00AB,U+00BB,U+0600-06FF,U+0750-077F,U+08A0-08FF,"
                                        "U+FB50-FDFF,U+FE70-FEFF,U+200C-200F")
SYMBOLS = ("DejaVuSans.ttf", "U+2190-21FF,U+2212,U+2260,U+2264,U+2265,U+25A0-25FF,U+2605,U+2606,"
                             "U+2660-2667,U+2713-2717")


def cut(source: Path, name: str, unicodes: str, out: Path) -> Path:
    subset.main([str(source / name), f"--unicodes={unicodes}", "--layout-features=*", "--no-hinting",
                 "--drop-tables+=MATH,FFTM", f"--output-file={out}"])
    return out


def main(argv: list[str]) -> None:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        raise SystemExit(__doc__)
    source = Path(argv[0])
    with tempfile.TemporaryDirectory() as tmp:
        arabic = cut(source, *ARABIC, Path(tmp) / "arabic.ttf")
        symbols = cut(source, *SYMBOLS, Path(tmp) / "symbols.ttf")
        font = TTFont(symbols)
        scale_upem(font, TTFont(arabic)["head"].unitsPerEm)
        font.save(symbols)
        merged = merge.Merger().merge([str(arabic), str(symbols)])
    for record in merged["name"].names:  # the family is ours now: named so nothing mistakes it for Noto
        if record.nameID in (1, 4, 16):
            record.string = "CardTable"
        elif record.nameID == 6:
            record.string = "CardTable-Regular"
    merged.save(OUT)
    print(f"{OUT.name}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
