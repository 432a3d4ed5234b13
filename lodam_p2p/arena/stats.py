"""The arena's statistics: intervals, finishing ranks and the paired difference.

Pure functions over plain numbers, so that every figure can be checked by hand.

*Win share.* A match is won by one seat, or shared by the seats that lost their last
counters in the same deal; a shared win counts ``1/k`` to each of the ``k`` winners.
A bot name's win share is the sum over matches of the part of the win its seats took,
divided by the number of matches; its fair share is its seats divided by all seats
(what it would win if every seat were equally strong).

*Interval.* The 95% interval of a win share is Wilson's score interval: unlike the
plain normal interval it stays inside [0, 1] and behaves near 0 and 1, which is where
a strong bot against weak ones lives. Shared wins make the count fractional; the
formula takes that as it is.

*Paired comparison.* Two bots A and B play the same deals from the same seat; the
outcome of a pair is ``d = win(A) − win(B)`` in [−1, 1]. Matches of one rotation group
share their deck stream, so they are not independent: the group (the mean of its
pairs) is the unit, and the interval is ``mean ± z·sd/√groups`` over group means.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: The z value of a two-sided 95% interval.
Z95 = 1.959963984540054


def z_for(confidence: float) -> float:
    """The two-sided z value for ``confidence`` (0.95 → 1.96, 0.99 → 2.576)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``successes / trials``.

    ``(0.0, 1.0)`` when there are no trials (nothing is known).
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # Clamped so rounding never puts the interval beside p (it always contains it).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A sample mean with a normal interval around it."""

    mean: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval."""
        return value < self.low or value > self.high


def normal_interval(values: Sequence[float], z: float = Z95) -> MeanInterval:
    """``mean ± z·s/√n`` with the sample standard deviation ``s`` (n − 1 divisor).

    With fewer than two values the spread is unknown: the interval is infinite.
    """
    n = len(values)
    if n == 0:
        return MeanInterval(0.0, -math.inf, math.inf, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanInterval(mean, -math.inf, math.inf, n)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return MeanInterval(mean, mean - half, mean + half, n)


def finishing_ranks(standing: Sequence[tuple[float, ...]]) -> list[float]:
    """Finishing rank per seat (1 = best) from a sort key where bigger is better.

    Seats with equal keys share the mean of the places they occupy: two seats tied for
    places 3 and 4 both get 3.5. In the arena the key is *(deal of elimination, counters
    held)*, with survivors at infinity, so the winner ranks 1 and the first eliminated
    ranks last.
    """
    order = sorted(range(len(standing)), key=lambda seat: standing[seat], reverse=True)
    ranks = [0.0] * len(standing)
    place = 0
    while place < len(order):
        tied_end = place
        while tied_end + 1 < len(order) and standing[order[tied_end + 1]] == standing[order[place]]:
            tied_end += 1
        shared = (place + 1 + tied_end + 1) / 2
        for position in range(place, tied_end + 1):
            ranks[order[position]] = shared
        place = tied_end + 1
    return ranks


def win_parts(winners: Sequence[int], seat_bots: Sequence[str]) -> dict[str, float]:
    """The part of one match's win each bot name took (shared wins split equally)."""
    parts: dict[str, float] = {}
    for seat in winners:
        name = seat_bots[seat]
        parts[name] = parts.get(name, 0.0) + 1 / len(winners)
    return parts
