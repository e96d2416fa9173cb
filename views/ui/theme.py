"""Every colour and size the app draws with, in one place. Screens and tables name a colour by its
job (``ON_FELT``, ``SELLING``); nothing else in ``views/`` writes a colour literal."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

if TYPE_CHECKING:
    from flet.messaging.session import Session

# --- the felt and what sits on it ---------------------------------------------------------------
FELT = "#0B5D3B"  # the table's cloth (also the seed of the app's Material colour scheme)
FELT_DARK = "#08462C"  # a lane's bed on the cloth, a seat's plate
FELT_LIGHT = "#0E6842"  # the cloth under the lamp, in the middle of the table
SEAT_EDGE = "#2E7D32"  # a seat plate's rim when it is not that player's turn
ON_FELT = "#FFFFFF"  # text and icons on the cloth
ON_FELT_MUTED = "#C8E6C9"  # secondary text on the cloth (counts, hints)
LAST_MOVE = "#FFE082"  # the last move in words, and hint buttons
SHADE = "#00000033"  # a panel on the cloth (status)
SHADE_LIGHT = "#00000022"  # a lighter panel on the cloth (the Lopti pile)
RESIGN = "#FFCDD2"  # the resign button on the cloth
#: a button on the cloth that cannot be used now: dimmer than ON_FELT yet at least 3:1 against every
#: shade of the cloth (3.75:1 on FELT_LIGHT), so a newcomer still sees that it is there (#42)
OFF_FELT = "#9CCC9F"
BUTTON = "#FFFFFF"  # a usable button on the cloth (its words in INK)
BUBBLE = "#FFF8E1"  # a quick message beside the seat that sent it (its words in INK)

# --- cards ---------------------------------------------------------------------------------------
CARD_FACE = "#FFFFFF"
CARD_DIM = "#E0E0E0"  # a card that cannot be played now
CARD_EDGE = "#9E9E9E"
CARD_BACK = "#1A237E"
RED = "#C62828"  # hearts and diamonds
INK = "#1B1B1F"  # spades and clubs, and dark text on light chips
JOKER = "#6A1B9A"
DIAMONDS_4C = "#1565C0"  # the four-colour card style
CLUBS_4C = "#2E7D32"
HIGHLIGHT = "#FFB300"  # a legal target
SELECTED = "#1E88E5"  # the selected card

# --- markers and messages --------------------------------------------------------------------------
SELLING = "#FFD54F"  # a lane that sells (L-7.2)
THREES = "#90CAF9"  # the Lopti 3-chain marker (P-4.2)
LOW = "#FFCC80"  # the Lopti play-low marker (P-4.4)
OBLIGATION = "#EF9A9A"  # the Lopti obligation marker (P-4.6)
SUCCESS = "#2E7D32"  # done, won, the rated-rules badge
FRIENDLY = "#BF360C"  # house rules on: a friendly game
DANGER = "#B71C1C"  # an error, a refusal
COACH_BG = "#FFF8E1"
HINT = "#0D47A1"

# --- text on a screen's own background, light or dark: Material's colour roles, which keep their
# contrast (WCAG AA) in both themes; the fixed colours above are for the cloth, cards and chips
PAGE_ERROR = ft.Colors.ERROR
PAGE_GOOD = ft.Colors.PRIMARY
PAGE_FRIENDLY = ft.Colors.TERTIARY
PAGE_TEXT = ft.Colors.ON_SURFACE  # the words of a page: every role of the theme's type scale
PAGE_MUTED = ft.Colors.ON_SURFACE_VARIANT
PAGE_ACCENT = ft.Colors.PRIMARY  # a heading in the app's colour (a rules section, a lesson not yet done)
ON_ACCENT = ft.Colors.ON_PRIMARY  # words on the accent (a chosen chip)
PAGE_PANEL = ft.Colors.SECONDARY_CONTAINER  # a panel that stands out on a page (a notice, a rule's sentence)
PAGE_EDGE = ft.Colors.OUTLINE  # the rim of a chip
PAGE_LINE = ft.Colors.OUTLINE_VARIANT  # a quiet frame around a group
NONE = ft.Colors.TRANSPARENT  # no fill

# --- timing: how often a screen looks again while it waits (seconds) ------------------------------
LOBBY_POLL_S = 1.0  # a seek or a challenge waiting for its match at the lobby
LOBBY_WAIT_S = 10.0  # a long poll's wait at the lobby (the opponent's move, a rematch answer)
QUICK_MESSAGE_S = 4.0  # a quick message shows this long beside its sender's seat
LOBBY_RETRY_S = 3.0  # the result screen asks again this long after the lobby could not be reached
CLOCK_TICK_S = 0.5  # an online match's clocks redrawn between the lobby's answers (whole seconds shown)
PAUSED_POLL_S = 0.2  # a table in the background checks whether the app came back
SPIT_FRAME_S = 0.05  # Spit's real-time table redraws at most this often (20 a second)
PROGRESS_TICK_S = 0.25  # a long job's progress bar (the expert's review)
SETTLE_S = 0.04  # a card lands a frame after it is drawn where it flew to (views/table/motion.py)

# --- sizes ---------------------------------------------------------------------------------------
# --- type: one size per role (logical pixels), so a screen says what a line is, not how big it is
TYPE_TINY = 11  # a chip's rank, a rule's id, a plot's scale
TYPE_NOTE = 12  # a note under a control, a tag
TYPE_SMALL = 13  # secondary lines: details, status, a result's reason
TYPE_BODY = 14  # body text
TYPE_LEAD = 15  # a line to read first: a prompt, a row of a list
TYPE_STRONG = 16  # a dialog's title, a player's name on a table
TYPE_SECTION = 17  # a section of a rules page
TYPE_HEADING = 18  # a heading inside a screen
TYPE_TITLE = 20  # a screen's title
TYPE_TILE = 22  # a game's name on its tile, a result
TYPE_DISPLAY = 28  # the app's name on home
#: every size of the scale, by its value (tests/test_code_shape.py: no other size is written out)
TYPE_SCALE = {TYPE_TINY, TYPE_NOTE, TYPE_SMALL, TYPE_BODY, TYPE_LEAD, TYPE_STRONG, TYPE_SECTION, TYPE_HEADING,
              TYPE_TITLE, TYPE_TILE, TYPE_DISPLAY}

#: the spacing scale: every gap between controls (``spacing=``) and every padding is one of these
#: steps, so screens keep one rhythm (tests/test_code_shape.py checks no other number is written)
SPACE_NONE = 0
SPACE_HAIR = 1  # a card's attachments under it, a seat plate's lines
SPACE_FINE = 2  # inside a chip or a box: lines of one block
SPACE_TIGHT = 4  # items of one row: chips, a seat's cards, icons with their words
SPACE_SNUG = 6  # the parts of a table: its rows, the status box
SPACE = 8  # controls of one group
SPACE_LOOSE = 12  # groups on a screen, inside a card, a text button's sides
SPACE_WIDE = 16  # a screen's edge, sections, a filled button's sides
SPACE_VAST = 24  # around a result
SPACE_SCALE = {SPACE_NONE, SPACE_HAIR, SPACE_FINE, SPACE_TIGHT, SPACE_SNUG, SPACE, SPACE_LOOSE, SPACE_WIDE,
               SPACE_VAST}

MAX_WIDTH = 640  # on a desktop the table keeps a phone-like column in the middle of the felt
#: the home's game tiles: one per row on a phone, two side by side from 768 px, three from 1200
#: (a desktop's tiles were each as wide as their own words, three ragged widths down the left)
TILE_COLUMNS: ft.ResponsiveNumber = {"xs": 12, "md": 6, "xl": 4}
PAD = SPACE_WIDE  # around a screen's content
FELT_PAD = SPACE_TIGHT  # the cloth's side margin around a table (a 360 px phone's hand needs every pixel)
#: a screen of fields or of reading (the settings, the rules): the whole width on a phone, two thirds
#: of a tablet's and half of a desktop's (a desktop's settings ran 1,250 px across, the menus' arrows far
#: from their words, and a rule's line 1,100)
NARROW_COLUMNS: dict[str | ft.ResponsiveRowBreakpoint, int | float] = {"xs": 12, "md": 8, "xl": 6}
#: where Flet's ResponsiveRow changes a span (its breakpoints, by the page's width)
BREAKPOINTS = {"xs": 0, "sm": 576, "md": 768, "lg": 992, "xl": 1200, "xxl": 1400}


def narrow_width(page_width: float | None) -> float | None:
    """A page as wide as a narrow page's column on a page ``page_width`` wide, with the page's edges
    kept: what a screen that sizes its words by the page (a switch's label) gives in that column."""
    if not page_width:
        return page_width
    span = next(NARROW_COLUMNS[k] for k, at in reversed(BREAKPOINTS.items())
                if k in NARROW_COLUMNS and page_width >= at)
    return (page_width - 2 * PAD) * span / 12 + 2 * PAD


#: screens change at once, on every platform: a card table should answer a tap now, and the
#: platforms' page animations (~300 ms) made every step from home to a table wait for them
TRANSITIONS = ft.PageTransitionsTheme(**{p: ft.PageTransitionTheme.NONE
                                         for p in ("android", "ios", "linux", "macos", "windows")})

CARD_RADIUS = 0.05  # a card's corner, as a share of its width (the bundled faces' own corner)
LIFT = -0.12  # the selected card rises by this share of its height
GLOW = "#FFD54F"  # the light around a legal target
CARD_SHADOW = "#66000000"  # the shadow under a card on the cloth
MIN_TARGET = 44  # the least width and height of anything a finger taps on a phone (px)
BUTTON_HEIGHT = 48  # a button on a table (Android's 48 dp touch target)
SWITCH_WIDTH = 68  # what a switch takes of a row beside its words: Material's 60-px box and a gap


@dataclass(frozen=True)
class Look:
    """What every card and motion on one page is drawn with: the settings' card style, the player's
    language (for the names a screen reader speaks) and whether motion is reduced."""

    card_style: str = "classic"
    lang: str = "en"
    reduce_motion: bool = False


#: the look of each running session's page (settings); read by the card widgets and the motion.
#: Held by the session object weakly: a closed session's entry goes with it (keyed by its id, every
#: browser tab that ever connected stayed here for the server's life)
_LOOKS: weakref.WeakKeyDictionary[Session, Look] = weakref.WeakKeyDictionary()


def set_look(page: ft.Page, look: Look) -> None:
    _LOOKS[page.session] = look


def look() -> Look:
    """The look chosen in the settings of the page being drawn; the defaults outside a running app
    (unit tests build controls without a page)."""
    try:
        page = ft.context.page
    except RuntimeError:
        return Look()
    return _LOOKS.get(page.session, Look()) if page is not None else Look()


def card_style() -> str:
    return look().card_style
