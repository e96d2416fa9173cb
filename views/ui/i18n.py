"""Translations (assets/i18n/{en,ar,vi}.json). A missing key falls back to English, then to the
key itself, so a gap never crashes a screen."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

LANGS = ("en", "ar", "vi")
RTL = {"ar"}
NAMES = {"en": "English", "ar": "العربية", "vi": "Tiếng Việt"}
I18N_DIR = Path(__file__).resolve().parents[2] / "assets" / "i18n"


@cache
def table(lang: str) -> dict[str, str]:
    path = I18N_DIR / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def t(lang: str, key: str, **kw: object) -> str:
    text = table(lang if lang in LANGS else "en").get(key) or table("en").get(key) or key
    try:
        return text.format(**kw)
    except (KeyError, IndexError):
        return text


def said(lang: str, key: str, you: bool, **kw: object) -> str:
    """An event sentence; languages whose verbs agree with "you" (Arabic) have a ``key_you`` form."""
    if you and f"{key}_you" in (table(lang if lang in LANGS else "en")) | table("en"):
        return t(lang, f"{key}_you", **kw)
    return t(lang, key, **kw)


def counted(key: str, n: object) -> str:
    """The key of the form a count ``n`` takes: ``key_one`` (1), ``key_two`` (2), ``key_few`` (3–10
    after the hundreds) and ``key`` otherwise — Arabic's number forms (one card, two cards, 3–10
    cards, 11 and more each read differently); English and Vietnamese strings give the forms they
    need, the same words where they have none. Only for keys defined with all four forms. A count
    that is not a whole number (a lobby's odd answer, one not known yet) takes the general form."""
    if not isinstance(n, int):
        return key
    form = "one" if n == 1 else "two" if n == 2 else "few" if 3 <= n % 100 <= 10 else ""
    return f"{key}_{form}" if form else key


def listed(lang: str, items: Iterable[object]) -> str:
    """Several parts as one phrase, joined the language's way ("a, b"; Arabic "a، b")."""
    return t(lang, "list_sep").join(str(x) for x in items)


def clauses(lang: str, items: Iterable[object]) -> str:
    """Several sentences of one event as one line, joined the language's way ("a; b"; Arabic "a؛ b")."""
    return t(lang, "clause_sep").join(str(x) for x in items)


SUIT_GLYPH = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    """``"10H"`` → ``"10♥"`` (the joker stays ``JK``)."""
    return card if card == "JK" else card[:-1] + SUIT_GLYPH.get(card[-1], card[-1])


_SHOWN_CARD = re.compile(r"(?<!\w)(10|[2-9AJQK])([♠♥♦♣])|(?<!\w)JK(?!\w)")
_SUIT_OF_GLYPH = {glyph: suit for suit, glyph in SUIT_GLYPH.items()}


def spoken_cards(lang: str, words: str) -> str:
    """``words`` as a screen reader should say them: every card shown as ``6♥`` (``card_label``)
    becomes its spoken name ("6 of hearts", "٦ كبة"…), so no reader spells out a suit symbol."""
    def name(m: re.Match[str]) -> str:
        return card_name(lang, "JK" if m.group(1) is None else m.group(1) + _SUIT_OF_GLYPH[m.group(2)])

    return _SHOWN_CARD.sub(name, words)


def why_text(lang: str, why: object) -> str:
    """An engine reason (``engine.core.Why``) in the player's language; a reason the tables do not
    know stays in the engine's English rather than vanishing."""
    key = getattr(why, "key", None)
    if not key or f"why_{key}" not in table("en"):
        return str(why)
    params = dict(getattr(why, "params", {}))
    if "suit" in params:
        params["suit"] = SUIT_GLYPH.get(str(params["suit"]), params["suit"])
    if "card" in params:
        params["card"] = " ".join(card_label(c) for c in str(params["card"]).split())
    n = params.get("n")
    # a reason with a count says it in the count's form ("one 2", "3 2s") where its words have forms
    words = counted(f"why_{key}", n) if f"why_{key}_one" in table("en") else f"why_{key}"
    return t(lang, words, **params)


def card_name(lang: str, card: str) -> str:
    """What a screen reader says for a card, in the player's language: "Queen of hearts",
    "بنت كبة", "Đầm Cơ"; number ranks stay digits (every reader speaks them in its language)."""
    if card == "JK":
        return t(lang, "card_JK")
    rank, suit = card[:-1], card[-1]
    if rank not in ("A", "J", "Q", "K") and not rank.isdigit() or suit not in SUIT_GLYPH:
        return card  # not a card name: said as it is rather than guessed
    return t(lang, "card_of", rank=t(lang, f"rank_{rank}") if rank in "AJQK" else rank, suit=t(lang, f"suit_{suit}"))
