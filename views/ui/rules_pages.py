"""The rules pages (assets/rules/{game}.json): written by us from the numbered rules, in three
languages, each item citing its rule id and optionally showing small cards the app draws.

Loading is checked (every text in every language, cards that parse) so a broken file shows a clear
message instead of a half-empty page; the tests load every page."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.cards import parse_card
from views.ui.i18n import LANGS

RULES_DIR = Path(__file__).resolve().parents[2] / "assets" / "rules"


class RulesPageError(ValueError):
    pass


@dataclass(frozen=True)
class Item:
    rule: str
    text: dict[str, str]
    cards: tuple[str, ...]
    tag: str | None  # "friendly": a house rule, never rated


@dataclass(frozen=True)
class Section:
    id: str
    title: dict[str, str]
    items: tuple[Item, ...]


@dataclass(frozen=True)
class RulesPage:
    game: str
    title: dict[str, str]
    intro: dict[str, str]
    sections: tuple[Section, ...]

    def find(self, rule: str) -> tuple[Section, Item] | None:
        """The first item citing ``rule`` (for in-game explanations)."""
        for section in self.sections:
            for item in section.items:
                if item.rule == rule:
                    return section, item
        return None


def _text(obj: Any, where: str) -> dict[str, str]:
    if not isinstance(obj, dict) or any(not isinstance(obj.get(lang), str) or not obj[lang] for lang in LANGS):
        raise RulesPageError(f"{where}: needs text in each of {'/'.join(LANGS)}")
    return {lang: obj[lang] for lang in LANGS}


def parse(obj: Any) -> RulesPage:
    if not isinstance(obj, dict) or not isinstance(obj.get("sections"), list):
        raise RulesPageError("a rules page is an object with sections")
    sections = []
    for si, raw in enumerate(obj["sections"]):
        items = []
        for ii, it in enumerate(raw.get("items", [])):
            where = f"section {si + 1} item {ii + 1}"
            cards = tuple(it.get("cards", []))
            for c in cards:
                if c != "JK":
                    parse_card(c)
            items.append(Item(str(it.get("rule", "")), _text(it.get("text"), where), cards, it.get("tag")))
        sections.append(Section(str(raw.get("id", si)), _text(raw.get("title"), f"section {si + 1}"), tuple(items)))
    return RulesPage(str(obj.get("game", "")), _text(obj.get("title"), "title"), _text(obj.get("intro"), "intro"),
                     tuple(sections))


@cache
def page(game: str) -> RulesPage:
    path = RULES_DIR / f"{game}.json"
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise RulesPageError(f"{path.name}: {exc}") from None
