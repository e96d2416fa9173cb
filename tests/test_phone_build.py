"""What `flet build apk|ipa` packages for the phone can actually be built and run there (docs/app.md,
"Build for phones").

The build installs ``[project].dependencies`` only, with ``pip --only-binary :all:`` for Android and
iOS, and ignores extras. So: (1) the app's code must import nothing from the lobby's or the web
server's packages, and (2) every distribution in the closure of ``[project].dependencies`` must be
pure Python or on the list of packages known to have mobile builds.
"""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
APP_DOC = (ROOT / "docs" / "app.md").read_text(encoding="utf-8")

#: top-level modules of the lobby service and of the web and desktop servers: none reaches a phone
SERVER_MODULES = ("lobby", "fastapi", "starlette", "uvicorn", "uvloop", "httptools", "orjson", "psycopg",
                  "psycopg_binary", "psycopg_c", "flet_web", "flet_desktop", "websockets", "watchfiles")

#: distributions with compiled code that have Android and iOS builds (docs/app.md lists them and why);
#: a version here is the only one known built (pydantic pins pydantic-core exactly)
MOBILE_BUILT: dict[str, str | None] = {
    "pydantic-core": "2.46.3",  # Flet's mobile index; pinned through pydantic==2.13.3
    "msgpack": None,  # Flet's mobile index (a mobile-forge recipe); flet asks only msgpack>=1.1.0
    "sqlalchemy": None,  # its C speed-ups are optional: PyPI has a py3-none-any wheel of every release
}

BLOCKER = f"""
import importlib.abc, sys
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {SERVER_MODULES!r}:
            raise ImportError(f'the phone app reached a server package: {{name}}')
        return None
sys.meta_path.insert(0, Blocker())
"""


def run_blocked(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCKER + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_the_app_imports_no_lobby_or_web_server_package() -> None:
    """Every module of main.py, views/, engine/ and storage/ imports with the server packages blocked."""
    walk = """
import importlib, pkgutil
import main
count = 0
for package in ("engine", "storage", "views"):
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        importlib.import_module(info.name)
        count += 1
print(count)
"""
    done = run_blocked(walk)
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.split()[-1]) > 50  # the walk really went through the tree


def test_the_blocker_catches_a_server_import() -> None:
    """The check above can fail: importing the lobby's app is refused."""
    done = run_blocked("import lobby.app")
    assert done.returncode != 0 and "reached a server package: lobby" in done.stderr


def test_python_m_lobby_without_its_packages_says_how_to_install_them() -> None:
    """With site-packages left out (``-S``) none of the lobby's packages is found: one line says how."""
    ran = subprocess.run([sys.executable, "-S", "-m", "lobby"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2
    assert ran.stderr.strip().splitlines() == [
        'The lobby needs its own packages: pip install -e ".[lobby]" (from the project root)']


def phone_closure() -> dict[str, metadata.Distribution]:
    """The installed distributions that ``[project].dependencies`` reach, by normalised name."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    while todo:
        req = todo.pop()
        name = canonical(req.name)
        if name in seen or (req.marker and not req.marker.evaluate({"extra": ""})):
            continue
        dist = metadata.distribution(req.name)
        seen[name] = dist
        todo.extend(Requirement(r) for r in dist.requires or [])
    return seen


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def is_pure_python(dist: metadata.Distribution) -> bool:
    wheel = dist.read_text("WHEEL") or ""
    return "Root-Is-Purelib: true" in wheel


def test_the_phone_dependencies_are_pure_python_or_built_for_phones() -> None:
    closure = phone_closure()
    assert {"flet", "sqlmodel", "httpx", "pydantic", "pydantic-core", "sqlalchemy"} <= set(closure)
    compiled = {name for name, dist in closure.items() if not is_pure_python(dist)}
    assert compiled <= set(MOBILE_BUILT), f"no Android/iOS build known for: {sorted(compiled - set(MOBILE_BUILT))}"
    for name, version in MOBILE_BUILT.items():
        if version is not None and name in closure:
            assert closure[name].version == version, f"{name} {closure[name].version}: only {version} is built"


def test_no_server_package_is_a_phone_dependency() -> None:
    names = set(phone_closure())
    assert not names & {"fastapi", "uvicorn", "uvloop", "httptools", "orjson", "psycopg", "psycopg-binary",
                        "flet-web", "flet-desktop", "websockets", "watchfiles"}


def test_the_mobile_built_list_is_documented() -> None:
    section = APP_DOC.split("## Build for phones", 1)[1]
    for name in MOBILE_BUILT:
        assert f"`{name}`" in section


# --- the build configuration, the icons and the splash ------------------------------------------

ASSETS = ROOT / "assets"
FLET = PYPROJECT["tool"]["flet"]


def png_header(path: Path) -> tuple[int, int, int]:
    """(width, height, colour type) of a PNG: 2 is RGB, 6 is RGB with alpha."""
    data = path.read_bytes()[:26]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height, data[25]


def test_the_build_names_the_app_and_its_version() -> None:
    assert FLET["product"] == "Card Table"
    assert re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z][a-z0-9]*){2,}", FLET["bundle_id"])
    assert FLET["bundle_id"].startswith(FLET["org"] + ".")
    assert isinstance(FLET["build_number"], int) and FLET["build_number"] >= 1
    assert re.fullmatch(r"\d+\.\d+\.\d+", PYPROJECT["project"]["version"])  # the build's version name
    assert PYPROJECT["project"]["description"]
    assert FLET["app"]["module"] == "main" and (ROOT / "main.py").exists()


def test_the_build_asks_for_the_network_permission_only() -> None:
    assert "permissions" not in FLET  # no camera, location, microphone, photos
    assert FLET["android"]["permission"] == {"android.permission.INTERNET": True}


def test_the_package_leaves_out_the_server_the_tests_and_the_docs() -> None:
    """What `flet build` copies: the app path's entries, less `exclude` (exact paths), build/ and
    hidden ones. Only the app's own code and assets are left."""
    app = ROOT / FLET["app"]["path"]
    exclude = set(FLET["app"]["exclude"])
    assert {"lobby", "tests", "docs"} <= exclude
    packaged = {p.name for p in app.iterdir() if not p.name.startswith(".") and p.name not in exclude | {"build"}}
    assert packaged <= {"main.py", "pyproject.toml", "views", "engine", "storage", "assets"}, packaged
    assert {"main.py", "views", "engine", "storage", "assets", "pyproject.toml"} <= packaged  # the app reads
    # its built-in lobby address from the packaged pyproject.toml (storage/lobby_address.py)


#: the square images `flet build` reads from assets/, and the least size it wants of each
ICONS = {"icon.png": 1024, "icon_android.png": 192, "icon_ios.png": 1024, "splash.png": 1024, "splash_dark.png": 1024}


def test_every_icon_and_splash_flet_reads_is_there_at_its_size() -> None:
    for name, least in ICONS.items():
        width, height, colour = png_header(ASSETS / name)
        assert width >= least and width == height, (name, width, height)
        assert colour in (2, 6), (name, colour)
    assert png_header(ASSETS / "icon_ios.png")[2] == 2  # Apple refuses an app icon with an alpha channel
    assert png_header(ASSETS / "splash.png")[2] == 6  # the cards alone, on the splash colour
    assert re.fullmatch(r"#[0-9A-Fa-f]{6}", FLET["splash"]["color"])
    assert re.fullmatch(r"#[0-9A-Fa-f]{6}", FLET["splash"]["dark_color"])


def load_make() -> ModuleType:
    spec = importlib.util.spec_from_file_location("icon_make", ASSETS / "icon" / "make.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_web_manifest_and_page_are_the_ones_the_script_makes() -> None:
    """assets/manifest.json and assets/index.html are what assets/icon/make.py writes today, from the
    theme's colours and from the installed flet-web's own page: a new Flet or a new colour shows here."""
    make = load_make()
    assert json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8")) == make.manifest()
    assert (ASSETS / "index.html").read_text(encoding="utf-8") == make.index_html(make.flet_web_index())
    from views.ui import theme
    assert make.manifest()["theme_color"] == theme.FELT == FLET["splash"]["color"] == FLET["icon_background"]
    fonts = json.loads((ASSETS / "assets" / "FontManifest.json").read_text(encoding="utf-8"))
    assert fonts == make.font_manifest(make.flet_web_font_manifest())
    assert fonts == [{"family": "MaterialIcons", "fonts": [{"asset": make.ICON_FONT}]}]


def test_every_icon_the_app_shows_is_in_its_icon_font() -> None:
    """The page's Material icons are the ones views/ names and Flutter's own widgets draw, cut from
    Flet's font (assets/icon/make.py, ``icon_font``): an icon added to views/ without
    ``python assets/icon/make.py --fonts`` would be drawn as nothing, and fails here."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    make = load_make()
    names = make.icons_named(ROOT)
    assert {"settings", "arrow_back", "emoji_events", "arrow_drop_down"} <= names  # the scan finds them
    wanted = make.icon_codepoints(TTFont(make.flet_web_icon_font()), names)
    served = TTFont(ASSETS / "assets" / make.ICON_FONT)
    cmap = served.getBestCmap()
    assert {name: cp for name, cp in wanted.items() if cp not in cmap} == {}
    glyphs = served.getGlyphSet()

    def drawn(glyph: str) -> bool:
        pen = BoundsPen(glyphs)
        glyphs[glyph].draw(pen)
        return pen.bounds is not None

    assert [name for name, cp in wanted.items() if not drawn(cmap[cp])] == []  # outlines, not blanks
    assert len(cmap) == len(set(wanted.values()))  # and nothing else of the 8,600


def test_the_app_draws_nothing_with_the_fonts_its_page_leaves_out() -> None:
    """The page loads only Material's icons of Flet's fonts (assets/icon/make.py, ``font_manifest``):
    a Cupertino icon or a Markdown text (whose mathematics is drawn in KaTeX) would come out as boxes."""
    used = {f"{path.relative_to(ROOT)}: {word}" for path in [ROOT / "main.py", *(ROOT / "views").rglob("*.py")]
            for word in ("Cupertino", "Markdown") if word in path.read_text(encoding="utf-8")}
    assert used == set()


def test_the_manifest_names_icons_that_exist_at_their_sizes() -> None:
    manifest = json.loads((ASSETS / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "Card Table" and manifest["short_name"] and manifest["display"] == "standalone"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        width, height, _ = png_header(ASSETS / icon["src"])
        assert f"{width}x{height}" == icon["sizes"]
    assert png_header(ASSETS / "favicon.png")[:2] == (32, 32)
    assert png_header(ASSETS / "icons" / "apple-touch-icon-192.png")[:2] == (192, 192)
