"""Random base-rule choices (P-9.1) for the property suites: any values a session's votes could
reach that five players can still be dealt (at most 10 cards a seat), special cards all different."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.lopti.house_rules import BaseParams


@st.composite
def _changed(draw: st.DrawFn) -> BaseParams:
    reset, pass_, low, clear = draw(st.permutations(range(1, 14)))[:4]
    hand, down = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    return BaseParams(hand_size=hand, face_up=draw(st.integers(0, min(3, 10 - hand - down))), face_down=down,
                      draw_threshold=draw(st.integers(2, 5)), clear_run=draw(st.integers(3, 4)),
                      reset_rank=reset, pass_rank=pass_, low_rank=low, clear_rank=clear)


#: the base rules as printed, or any playable combination of changes
base_params = st.one_of(st.just(BaseParams()), _changed())
