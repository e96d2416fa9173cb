"""Plain-language descriptions of house rules in English, Arabic and Vietnamese (shown before a
vote and in the rule builder). Generated from the rule's data, so the text can never disagree with
what the engine enforces."""

from __future__ import annotations

from typing import Any

from engine.lopti.house_rules import HouseRule, parse_rule
from engine.lopti.table_rules import is_table_rule

LANGS = ("en", "ar", "vi")

PHRASES: dict[str, dict[str, Any]] = {
    "en": {
        "when": {"before": "Before {e}", "after": "After {e}"},
        "events": {"deal_start": "the deal starts", "turn_start": "a player's turn starts",
                   "play": "a player plays cards", "clear": "the pile is cleared", "take": "a player takes the pile",
                   "draw": "a player draws", "flip": "a face-down card is turned over",
                   "obligation": "a 3 passes the obligation", "low": "the low card is played"},
        "roles": {"actor": "that player", "next": "the next player", "previous": "the previous player",
                  "leader": "the leader", "most_cards": "the player with the most cards",
                  "fewest_cards": "the player with the fewest cards", "others": "every other player",
                  "all": "every player"},
        "if": ", if {c}", "and": " and ", "or": " or ", "not": "not ({c})",
        "cond": {"rank_in": "the rank is {v}", "count_at_least": "at least {v} cards",
                 "count_at_most": "at most {v} cards", "cause_in": "the cause is {v}", "zone": "they come from {v}",
                 "legal": "it is legal", "not_legal": "it is not legal", "forced": "the take is forced",
                 "voluntary": "the take is voluntary", "draw_empty": "the draw pile is empty",
                 "draw_not_empty": "the draw pile is not empty",
                 "hand_size": "{r} holds {op} {n} cards in hand", "cards_left": "{r} has {op} {n} cards left",
                 "pile_size": "the pile holds {op} {n} cards", "draw_size": "the draw pile holds {op} {n} cards",
                 "deal_number": "it is deal {op} {n}"},
        "ops": {">=": "at least", "<=": "at most", "==": "exactly"},
        "zones": {"hand": "the hand", "up": "the face-up cards", "down": "a face-down card"},
        "causes": {"ten": "a 10", "four": "four of a kind", "threes": "four 3s", "custom": "a house rule"},
        "effects": {"draw": "{r} draws {n}", "give": "{f} gives their {w} card to {t}",
                    "reveal": "{r} shows their highest hidden card", "skip": "{r} misses their next turn",
                    "reverse": "the direction of play reverses", "return_cleared": "{n} cleared card(s) go back under "
                    "the draw pile", "clear": "the pile is cleared and that player plays again",
                    "announce": "everyone hears: \u201c{text}\u201d"},
        "which": {"lowest": "lowest", "highest": "highest"}, "then": "; ", "end": ".",
    },
    "ar": {
        "when": {"before": "قبل أن {e}", "after": "بعد أن {e}"},
        "events": {"deal_start": "تبدأ الجولة", "turn_start": "يبدأ دور لاعب", "play": "يلعب لاعب أوراقًا",
                   "clear": "تُمسح الكومة", "take": "يأخذ لاعب الكومة", "draw": "يسحب لاعب ورقة",
                   "flip": "تُقلب ورقة مقلوبة", "obligation": "تنقل الـ3 الالتزام", "low": "تُلعب الورقة المنخفضة"},
        "roles": {"actor": "ذلك اللاعب", "next": "اللاعب التالي", "previous": "اللاعب السابق", "leader": "البادئ",
                  "most_cards": "اللاعب صاحب أكثر الأوراق", "fewest_cards": "اللاعب صاحب أقل الأوراق",
                  "others": "كل لاعب آخر", "all": "كل لاعب"},
        "if": "، إذا {c}", "and": " و", "or": " أو ", "not": "ليس ({c})",
        "cond": {"rank_in": "كانت الرتبة {v}", "count_at_least": "كانت الأوراق {v} على الأقل",
                 "count_at_most": "كانت الأوراق {v} على الأكثر", "cause_in": "كان السبب {v}",
                 "zone": "كانت من {v}", "legal": "كانت اللعبة صحيحة", "not_legal": "لم تكن اللعبة صحيحة",
                 "forced": "كان الأخذ إجباريًا", "voluntary": "كان الأخذ اختياريًا",
                 "draw_empty": "كانت كومة السحب فارغة", "draw_not_empty": "لم تكن كومة السحب فارغة",
                 "hand_size": "كان في يد {r} {op} {n} أوراق", "cards_left": "بقي مع {r} {op} {n} أوراق",
                 "pile_size": "كانت الكومة {op} {n} أوراق", "draw_size": "كانت كومة السحب {op} {n} أوراق",
                 "deal_number": "كانت الجولة رقم {op} {n}"},
        "ops": {">=": "على الأقل", "<=": "على الأكثر", "==": "بالضبط"},
        "zones": {"hand": "اليد", "up": "الأوراق المكشوفة", "down": "ورقة مقلوبة"},
        "causes": {"ten": "ورقة 10", "four": "أربع متماثلة", "threes": "أربع ورقات 3", "custom": "قاعدة منزلية"},
        "effects": {"draw": "يسحب {r} {n}", "give": "يعطي {f} ورقته ال{w} إلى {t}",
                    "reveal": "يكشف {r} أعلى ورقة مخفية لديه", "skip": "يفقد {r} دوره التالي",
                    "reverse": "ينعكس اتجاه اللعب", "return_cleared": "تعود {n} من الأوراق الممسوحة تحت كومة السحب",
                    "clear": "تُمسح الكومة ويلعب ذلك اللاعب مرة أخرى", "announce": "يسمع الجميع: «{text}»"},
        "which": {"lowest": "أدنى", "highest": "أعلى"}, "then": "؛ ", "end": ".",
    },
    "vi": {
        "when": {"before": "Trước khi {e}", "after": "Sau khi {e}"},
        "events": {"deal_start": "ván bắt đầu", "turn_start": "lượt của một người bắt đầu",
                   "play": "một người đánh bài", "clear": "chồng bài bị dọn", "take": "một người nhặt chồng bài",
                   "draw": "một người rút bài", "flip": "một lá úp được lật", "obligation": "lá 3 chuyển nghĩa vụ",
                   "low": "lá thấp được đánh"},
        "roles": {"actor": "người đó", "next": "người kế tiếp", "previous": "người trước", "leader": "người đi đầu",
                  "most_cards": "người nhiều bài nhất", "fewest_cards": "người ít bài nhất",
                  "others": "mọi người khác", "all": "mọi người"},
        "if": ", nếu {c}", "and": " và ", "or": " hoặc ", "not": "không phải ({c})",
        "cond": {"rank_in": "quân bài là {v}", "count_at_least": "có ít nhất {v} lá",
                 "count_at_most": "có nhiều nhất {v} lá", "cause_in": "lý do là {v}", "zone": "bài đến từ {v}",
                 "legal": "nước đi hợp lệ", "not_legal": "nước đi không hợp lệ", "forced": "việc nhặt là bắt buộc",
                 "voluntary": "việc nhặt là tự nguyện", "draw_empty": "chồng rút đã hết",
                 "draw_not_empty": "chồng rút còn bài",
                 "hand_size": "{r} cầm {op} {n} lá trên tay", "cards_left": "{r} còn {op} {n} lá",
                 "pile_size": "chồng bài có {op} {n} lá", "draw_size": "chồng rút có {op} {n} lá",
                 "deal_number": "đây là ván {op} {n}"},
        "ops": {">=": "ít nhất", "<=": "nhiều nhất", "==": "đúng"},
        "zones": {"hand": "trên tay", "up": "bài ngửa", "down": "một lá úp"},
        "causes": {"ten": "lá 10", "four": "tứ quý", "threes": "bốn lá 3", "custom": "luật nhà"},
        "effects": {"draw": "{r} rút {n} lá", "give": "{f} đưa lá {w} của mình cho {t}",
                    "reveal": "{r} lật cho mọi người xem lá ẩn cao nhất", "skip": "{r} mất lượt kế tiếp",
                    "reverse": "chiều chơi đảo ngược", "return_cleared": "{n} lá đã dọn quay lại dưới chồng rút",
                    "clear": "chồng bài bị dọn và người đó đánh tiếp", "announce": "mọi người nghe: “{text}”"},
        "which": {"lowest": "thấp nhất", "highest": "cao nhất"}, "then": "; ", "end": ".",
    },
}


def _cond(c: Any, ph: dict[str, Any]) -> str:
    (key, arg), = c.items()
    cd = ph["cond"]
    if key in ("all", "any"):
        return (ph["and"] if key == "all" else ph["or"]).join(_cond(x, ph) for x in arg)
    if key == "not":
        return str(ph["not"]).format(c=_cond(arg, ph))
    if key == "rank_in":
        return str(cd["rank_in"]).format(v="/".join(arg))
    if key in ("count_at_least", "count_at_most"):
        return str(cd[key]).format(v=arg)
    if key == "cause_in":
        return str(cd["cause_in"]).format(v="/".join(ph["causes"][x] for x in arg))
    if key == "zone":
        return str(cd["zone"]).format(v=ph["zones"][arg])
    if key == "legal":
        return str(cd["legal" if arg else "not_legal"])
    if key == "forced":
        return str(cd["forced" if arg else "voluntary"])
    if key == "draw_empty":
        return str(cd["draw_empty" if arg else "draw_not_empty"])
    return str(cd[key]).format(r=ph["roles"][arg.get("role", "actor")], op=ph["ops"][arg["op"]], n=arg["n"])


def _effect(e: dict[str, Any], ph: dict[str, Any]) -> str:
    kind = e["effect"]
    roles = ph["roles"]
    template = str(ph["effects"][kind])
    return template.format(r=roles[e.get("role", "next" if kind == "skip" else "actor")], n=e.get("n", 1),
                           f=roles[e.get("from", "actor")], t=roles[e.get("to", "next")],
                           w=ph["which"][e.get("which", "lowest")], text=e.get("text", ""))


def describe(rule: HouseRule | dict[str, Any], lang: str = "en") -> str:
    """One sentence describing the rule in ``lang`` (en, ar, vi)."""
    if lang not in PHRASES:
        raise ValueError(f"language must be one of {', '.join(LANGS)}")
    if is_table_rule(rule):  # the table's own words, as written (the engine cannot say them otherwise)
        return str(rule["table"])
    r = rule if isinstance(rule, HouseRule) else parse_rule(rule)
    ph = PHRASES[lang]
    text = str(ph["when"][r.timing]).format(e=ph["events"][r.event])
    if r.condition is not None:
        text += str(ph["if"]).format(c=_cond(r.condition, ph))
    text += ": " + str(ph["then"]).join(_effect(e, ph) for e in r.effects) + str(ph["end"])
    return text
