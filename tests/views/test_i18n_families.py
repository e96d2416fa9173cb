"""Every family of translation keys that a screen builds at run time has all its keys (#43 item 6).

`views.ui.i18n.t` falls back to English, then to the key itself, so a screen never crashes on a
gap. But a key built from a value (``f"variant_{v}"``, ``"param_" + name``) that misses its entry
shows the raw key to the player, and no other test notices. So this test lists each such family
with the values that can fill it, taken from where the code gets them; it checks that every key of
every family is in the English table (``test_every_language_has_every_key`` gives the others the
same keys), and that every key built in views/ belongs to a listed family: a new f-string key fails
here until its family is listed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from engine.games import GAMES
from engine.lanes import VARIANTS
from engine.lopti.house_rules import CONDITION_NEEDS, EFFECTS, TIMINGS, BaseParams
from engine.lopti.votes import PROPOSAL_KINDS
from tests.conftest import ROOT
from views.lanes.ending import BY_ONE
from views.lopti.tie_screens import THROW_ICONS
from views.online.quick import PHRASES
from views.ui.i18n import SUIT_GLYPH, table
from views.ui.prefs import BOT_SPEEDS, CARD_STYLES, THEMES

#: the reasons a Lanes game ends (engine/lanes/rules.py: L-7, L-8.3) and an online match ends
#: besides them (lobby/matches.py: the clock, a player away, an abort)
END_REASONS = ("sold", "out_of_cards", "resigned", "timeout", "disconnected", "aborted")
#: the address faults BadAddress names (storage/lobby_address.py)
ADDRESS_FAULTS = ("empty", "scheme", "host", "port", "extra")

#: a family's pattern ("{}" where the value goes) → the values that fill it
FAMILIES: dict[str, Iterable[object]] = {
    "reason_{}": END_REASONS,  # views/lanes/ending.py
    "reason_{}_you": BY_ONE,  # views/lanes/ending.py: said to the player who ended the game
    "reason_{}_by": BY_ONE,  # and of them, by name
    "suit_{}": SUIT_GLYPH,  # views/ui/i18n.py card_name, views/lanes/table.py (a founding suit)
    "rank_{}": "AJQK",  # views/ui/i18n.py card_name: number ranks stay digits
    "dir_{}": ("up", "down"),  # views/lanes/table.py: a lane's direction (L-5)
    "addr_{}": ADDRESS_FAULTS,  # views/online/address.py
    "variant_{}": VARIANTS,  # views/screens/new_game.py, views/online/screens.py
    "lp_dir_{}": (1, -1),  # views/lopti/controller.py: the play direction after a reverse
    "rb_{}": TIMINGS,  # views/lopti/rule_builder.py
    "rb_cond_{}": CONDITION_NEEDS,
    "rb_eff_{}": EFFECTS,
    "prop_{}": PROPOSAL_KINDS,  # views/lopti/session_screen.py
    "param_{}": BaseParams.RANGES,  # views/lopti/session_screen.py and table.py
    "rps_{}": THROW_ICONS,  # views/lopti/session_screen.py: a thrown hand
    "ol_{}": ("first_you", "first_them", "move_you", "move_them"),  # views/online/controller.py countdowns
    "{}_blurb": GAMES,  # views/screens/home.py
    "theme_{}": THEMES,  # views/screens/settings.py
    "style_{}": CARD_STYLES,
    "speed_{}": BOT_SPEEDS,
    # views/online/quick.py: the phrases; views/online/table.py: why one was not sent (OnlineMode.say)
    "qm_{}": (*PHRASES, "soon", "lost", "refused"),
}
#: families whose callers look the key up first and fall back on purpose (views/ui/i18n.py): an
#: engine reason without words stays in the engine's English; a verb without a "you" form uses its
#: plain one
GUARDED = {"why_{}", "{}_you"}


def pattern(key: ast.expr) -> str | None:
    """A key built from a value, as its family's pattern (``f"rb_cond_{k}"`` → ``"rb_cond_{}"``);
    None for a literal key or a key that is a value through and through (a level, a game)."""
    if isinstance(key, ast.JoinedStr):
        return "".join(str(p.value) if isinstance(p, ast.Constant) else "{}" for p in key.values)
    if isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add) and isinstance(key.left, ast.Constant):
        return str(key.left.value) + "{}"
    if isinstance(key, ast.IfExp):  # 'ol_opponent_away' if … else f'ol_{kind}': the built branch
        return pattern(key.orelse) or pattern(key.body)
    return None


def built_keys() -> dict[str, list[str]]:
    """Every family pattern used in views/ with the places it is used (``path:line``)."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("t", "said") \
                    and len(node.args) >= 2 and (p := pattern(node.args[1])) is not None:
                found.setdefault(p, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_key_of_every_family_has_its_words() -> None:
    english = table("en")
    missing = [p.format(v) for p, values in FAMILIES.items() for v in values if p.format(v) not in english]
    assert missing == []


def test_every_key_built_in_the_views_belongs_to_a_listed_family() -> None:
    built = built_keys()
    assert len(built) >= 15  # the scan finds the families (it read the tree)
    unlisted = {p: where for p, where in built.items() if p not in FAMILIES and p not in GUARDED}
    assert unlisted == {}
    assert set(FAMILIES) <= set(built)  # no family listed here that the views no longer build


def test_the_scan_reads_each_way_a_key_is_built() -> None:
    def key(source: str) -> str | None:
        call = ast.parse(source).body[0].value  # type: ignore[attr-defined]
        return pattern(call.args[1])

    assert key('t(lang, f"variant_{v}")') == "variant_{}"
    assert key('t(lang, "param_" + name, v=1)') == "param_{}"
    assert key("t(lang, 'a' if x else f'ol_{kind}')") == "ol_{}"
    assert key('t(lang, "plain")') is None and key("t(lang, game)") is None


def test_the_hand_listed_values_are_all_the_code_has() -> None:
    """END_REASONS and ADDRESS_FAULTS are written out here: each reason the Lanes engine ends a
    game with and each fault BadAddress is raised with is among them."""
    import re

    lanes = (ROOT / "engine" / "lanes" / "rules.py").read_text(encoding="utf-8")
    ended = set(re.findall(r'_finish\([^)]*?"([a-z_]+)"', lanes))
    assert ended and ended <= set(END_REASONS)
    address = (ROOT / "storage" / "lobby_address.py").read_text(encoding="utf-8")
    faults = set(re.findall(r'BadAddress\("([a-z_]+)"\)', address))
    assert faults == set(ADDRESS_FAULTS)
