"""Entry point: ``python main.py`` (desktop window) or ``python main.py --web`` (browser, offline).

The app opens the local database (``--db`` or ``CARDTABLE_DB`` override the per-user location);
``--seed N`` (or ``CARDTABLE_SEED``) deals the games it starts from seeds N, N+1, … instead of the clock.
"""

from __future__ import annotations

import argparse
import gc
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent
#: Flet's web renderers (``ft.WebRenderer``'s values), named here so parsing the arguments needs no Flet
RENDERERS = ("auto", "canvaskit", "skwasm")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Card Table: Lanes, Lopti and Spit")
    ap.add_argument("--web", action="store_true", help="serve the app to a browser instead of a window")
    ap.add_argument("--host", default="127.0.0.1", help="web mode: address to bind (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8550, help="web mode: port (default 8550)")
    ap.add_argument("--db", default=None, help="path of the local database (default: per-user data dir)")
    ap.add_argument("--seed", type=int, default=None,
                    help="deal the games started while the app runs from seeds SEED, SEED+1, … "
                         "(to deal a reported game again; default: from the clock)")
    ap.add_argument("--renderer", choices=RENDERERS, default="auto",
                    help="web mode: the browser's Flutter renderer (default auto: Flet's choice, skwasm where "
                         "the browser can run it, else CanvasKit; docs/app.md)")
    args = ap.parse_args(argv)
    if args.seed is not None and args.seed < 0:
        ap.error("--seed: a whole number of 0 or more")
    return args


def settle_heap() -> None:
    """Before the first session: what is loaded by then (every screen's code, the bots', Flet's and
    its web server's) lives as long as the process, so it is moved out of the garbage collector's
    way (``gc.freeze``). A full collection then walks what the sessions made since instead of
    another ~110,000 objects as well: it took ~100 ms on this machine, and every session's events
    waited while it ran (``python tests/bench_gc.py``, docs/app.md). Here, not at the first
    session, so no player waits on it."""
    gc.collect()
    gc.freeze()


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import flet as ft

    from views.app import start, warm

    if args.db:
        os.environ["CARDTABLE_DB"] = args.db
    if args.seed is not None:
        os.environ["CARDTABLE_SEED"] = str(args.seed)

    def app_main(page: ft.Page) -> None:
        start(page, args.db)

    warm()
    if args.web:  # the web server's code too (ft.run loads it later): it lives as long as the process
        import flet_web.fastapi  # type: ignore[import-untyped]  # noqa: F401
        import uvicorn  # noqa: F401
    settle_heap()
    assets = str(ROOT / "assets")
    if args.web:  # say where: the web server itself prints nothing
        print(f"Card Table is served at http://{args.host}:{args.port}/ (Ctrl+C stops it)", flush=True)
        ft.run(app_main, assets_dir=assets, view=ft.AppView.WEB_BROWSER, host=args.host, port=args.port,
               no_cdn=True, web_renderer=ft.WebRenderer(args.renderer))
    else:
        ft.run(app_main, assets_dir=assets)


if __name__ == "__main__":
    main()
