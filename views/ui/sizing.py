"""Card sizes from the viewport: the tables fill the screen they are on, from a 360×640 phone to a
tablet, instead of drawing phone-sized cards on empty felt (#42).

Each table has a fixed part (its bars, seat plates, status, buttons: ``*_CHROME``, measured on
the running app at 390×844) and cards that share what is left of the page's height. Sizes never
go below the 360×640 phone's (a tapped card at least MIN_CARD tall, so 44 px wide) nor past what
the table's width allows; pure arithmetic, tested without Flet."""

from __future__ import annotations

from dataclasses import dataclass

from views.ui import theme

ASPECT = 1.4  # a card's height over its width (a poker card, 2.5 × 3.5 in; the bundled faces)
#: the least height of a card a finger taps: its width is then MIN_TARGET (62 / 1.4 ≈ 44)
MIN_CARD = 62
PHONE = (390, 844)  # the size assumed when the page has not said its own (screen tests)


def _clamp(x: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, x))


def card(height: float) -> tuple[float, float]:
    """A card of ``height`` px: (width, height), rounded to whole pixels."""
    return round(height / ASPECT), round(height)


def room(width: float | None) -> float:
    """The width a table's rows (and a hand) may take: the page's (a phone's when unknown, as in
    screen tests), at most the table's column, less the cloth's margins."""
    return min(width or PHONE[0], theme.MAX_WIDTH) - 2 * theme.FELT_PAD


# --- Lanes ------------------------------------------------------------------------------------------

#: the Lanes table's fixed part: header and opponent plate (~102), the status with a last move (~60),
#: the action bar (48), the Disband row under my lanes (46), each lane's value line and padding
#: (2 × 36), the hand's lift and glow room (16), the column's spacing and the cloth's padding (~60)
LANES_CHROME = 404
LANE_STEP = 0.38  # the strip of a covered stack that shows (its index corner), as a share of a card's height
MIN_STEP = 18


@dataclass(frozen=True)
class LanesSizes:
    hand: tuple[float, float]  # the hand's cards at most (the fan may narrow them: views/ui/fan.py)
    lane: tuple[float, float, float]  # a lane's card width, height, and the step between its stacks


def lanes(width: float | None, height: float | None, stacks: int = 0) -> LanesSizes:
    """The Lanes sizes for a page of ``width`` × ``height`` whose longest lanes (mine and the
    opponent's, added) hold ``stacks`` number cards beyond the first of each: the cards are sized
    for lanes of three, and longer lanes close their step rather than push the hand off the page."""
    w, h = room(width), height or PHONE[1]
    free = max(0.0, h - LANES_CHROME)
    hand_h = _clamp(free * 0.28, 68, 150)
    lanes_h = free - hand_h
    lane_w = (w - 8) / 3 - 8 - 30  # three lanes, each with its padding and the attachments' column
    ch = _clamp(lanes_h / (2 * (1 + 2 * LANE_STEP)), 62, min(lane_w * ASPECT, 150))
    lane_card = card(ch)
    room_left = lanes_h - 2 * lane_card[1]
    step = _clamp(room_left / max(stacks, 4), MIN_STEP, LANE_STEP * ch)
    return LanesSizes(card(hand_h), (*lane_card, round(step)))


# --- Lopti ------------------------------------------------------------------------------------------

#: header, status, the pile's words, the buttons, spacing and padding (~292), and each row of the
#: opponents' seat plates (64), each plate about LOPTI_PLATE wide (two a row on a phone)
LOPTI_CHROME = 292
LOPTI_PLATE_ROW = 64
LOPTI_PLATE = 172
#: my own seat plate beside my table cards ("You · Player 1", "3 face down"), and what each slot
#: adds to a card's width (the face-down card's edge under the face-up one, the gap)
LOPTI_MY_PLATE = 112
LOPTI_SLOT_EXTRA = 15


@dataclass(frozen=True)
class LoptiSizes:
    hand: tuple[float, float]
    pile: tuple[float, float]  # the top play on the pile (older plays and the deck are smaller)
    table: tuple[float, float]  # my face-up and face-down cards


def lopti(width: float | None, height: float | None, opponents: int = 2, slots: int = 3) -> LoptiSizes:
    """The hand, the pile and my table cards share what the seats and bars leave of the height
    (a hand a third of it, the pile a third, my table cards the rest); my ``slots`` table cards
    (face-up on face-down, three unless a vote changed it, P-2.1) fit in one row beside my plate."""
    w, h = room(width), height or PHONE[1]
    slot_w = (w - LOPTI_MY_PLATE) / max(1, slots) - LOPTI_SLOT_EXTRA
    per_row = max(1, int((w + 4) // (LOPTI_PLATE + 4)))
    rows = -(-opponents // per_row)
    free = max(0.0, h - LOPTI_CHROME - LOPTI_PLATE_ROW * rows)
    hand_h = _clamp(free * 0.36, 68, 150)
    pile_h = _clamp(free * 0.34, 70, min(140, w / 5 * ASPECT))
    table_h = _clamp(free * 0.3, 62, min(100, slot_w * ASPECT))
    return LoptiSizes(card(hand_h), card(pile_h), card(table_h))


# --- Spit -------------------------------------------------------------------------------------------

#: header, two seat plates, the status and the Spit! button's room, the stocks' counts, spacing
SPIT_CHROME = 330


@dataclass(frozen=True)
class SpitSizes:
    stock: tuple[float, float]
    pile: tuple[float, float]


def spit(width: float | None, height: float | None) -> SpitSizes:
    """Two rows of five stocks and the two centre piles (with a spit deck beside each)."""
    w, h = room(width), height or PHONE[1]
    free = max(0.0, h - SPIT_CHROME)
    stock_w = (w - 4 * 4) / 5 - 4  # five stocks, with the edge of the cards beneath
    stock_h = _clamp(free * 0.22, 72, min(stock_w * ASPECT, 140))
    pile_h = _clamp(free * 0.3, 100, min((w - 48) / 4 * ASPECT, 170))
    return SpitSizes(card(stock_h), card(pile_h))
