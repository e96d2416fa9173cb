"""Entry point: ``python main.py`` (desktop window) or ``python main.py --web`` (browser, offline).

Until the app issue lands this shows a minimal home screen listing the three games; the engines
behind them are complete and tested on their own.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent

GAMES = [
    ("Lanes", "Two players, three lanes each: sell two of the three (the game known as Caravan)."),
    ("Lopti", "2–5 players shed their cards; every deal's winner adds a house rule."),
    ("Spit", "Real time, two players, no turns: empty your stocks first."),
]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Card Table: Lanes, Lopti and Spit")
    ap.add_argument("--web", action="store_true", help="serve the app to a browser instead of a window")
    ap.add_argument("--host", default="127.0.0.1", help="web mode: address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8550, help="web mode: port (default 8550)")
    ap.add_argument("--db", default=None, help="path of the local database (default: per-user data dir)")
    return ap.parse_args(argv)


def build_home(page: object) -> None:
    import flet as ft

    assert isinstance(page, ft.Page)
    page.title = "Card Table"
    page.padding = 16
    tiles = [
        ft.Card(content=ft.Container(padding=16, content=ft.Column([
            ft.Text(name, size=22, weight=ft.FontWeight.BOLD),
            ft.Text(blurb, size=14),
        ]))) for name, blurb in GAMES
    ]
    page.add(ft.SafeArea(content=ft.Column([ft.Text("Card Table", size=28, weight=ft.FontWeight.BOLD), *tiles],
                                           scroll=ft.ScrollMode.AUTO)))


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import flet as ft

    if args.db:
        os.environ["CARDTABLE_DB"] = args.db
    kwargs: dict[str, object] = {"assets_dir": str(ROOT / "assets")}
    if args.web:
        kwargs.update(view=ft.AppView.WEB_BROWSER, host=args.host, port=args.port, no_cdn=True)
    ft.run(build_home, **kwargs)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
