"""Glicko-2 (Glickman, "Example of the Glicko-2 system"), pure and small.

Lichess practice: start 1500, RD 500 (max 500, min 45), volatility 0.09, τ = 0.75, provisional
while RD ≥ 110. (The ``glicko2`` package on PyPI has a bug in its volatility step and a mutable API,
see ../shared/notes/lobby.md — hence this function.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
START_RATING, START_RD, START_VOL = 1500.0, 500.0, 0.09
MAX_RD, MIN_RD = 500.0, 45.0
TAU = 0.75
PROVISIONAL_RD = 110.0
EPS = 1e-6


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi ** 2))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU, clamp: bool = True,
           periods: float = 1.0) -> Rating:
    """New rating after one rating period with ``games`` = [(opponent, score 0/0.5/1)].

    ``periods`` is how many rating periods the deviation grows by before the games (Glickman's
    paper: 1). Like lichess, the lobby rates every game at once and uses the time since the
    player's previous rated game, so two games in a row barely widen the deviation."""
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    if not games:
        phi_star = math.sqrt(phi * phi + periods * player.vol * player.vol)
        return Rating(player.rating, min(phi_star * SCALE, MAX_RD) if clamp else phi_star * SCALE, player.vol)
    v_inv = 0.0
    delta_sum = 0.0
    for opp, score in games:
        mu_j, phi_j = (opp.rating - 1500) / SCALE, opp.rd / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    a = math.log(player.vol ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex)) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    for _ in range(200):
        if abs(big_b - big_a) <= EPS:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    vol = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + periods * vol ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * delta_sum
    rd = new_phi * SCALE
    if clamp:
        rd = max(MIN_RD, min(MAX_RD, rd))
    return Rating(new_mu * SCALE + 1500, rd, vol)


def after_game(a: Rating, b: Rating, score_a: float, tau: float = TAU, periods_a: float = 0.0,
               periods_b: float = 0.0) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game (lichess updates after every game)."""
    return (update(a, [(b, score_a)], tau, periods=periods_a), update(b, [(a, 1 - score_a)], tau, periods=periods_b))
