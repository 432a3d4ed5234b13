"""What the end of a deal is worth to each seat: an estimate of its match chances.

Points only matter through counters, and a counter matters more the fewer are left: the
last one is the match. So a deal's outcome is valued per seat as a rough chance of
winning the match from the counters held afterwards::

    value(s) = f(counters(s)) / Σ f(counters(t))     over the seats still in

with ``f(c) = c²`` in Losing Lodam (a seat with none left is out: 0) — two seats holding
3 and 1 counters get 0.9 and 0.1, close to the chance that the one loses a counter before
the other loses three at even odds. In Winning Lodam counters are gained, and a seat that
reaches the target wins outright, so ``f(c) = 2^c``. Seats that all lose their last
counter in one deal share the win.

Each seat's value is its own (not "us against the rest"): in the search every seat picks
what is best for itself. A very small term for points taken breaks ties between
outcomes with the same counters, so that the search prefers taking fewer points (more in
Winning Lodam) when nothing else differs.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Value of one point taken, as a tie-break (a counter is worth about 0.1–0.3).
POINT_WEIGHT = 0.0003


def deal_values(
    lives: Sequence[int],
    active: Sequence[bool],
    change: Sequence[int],
    points: Sequence[int],
    *,
    winning: bool = False,
    target: int = 3,
) -> list[float]:
    """Per seat, the worth of a deal that ended with counter ``change`` and ``points``."""
    after = [lives[s] + change[s] for s in range(len(lives))]
    if winning:
        values = _winning(after, active, target)
        sign = 1.0
    else:
        values = _losing(after, active)
        sign = -1.0
    return [v + sign * POINT_WEIGHT * p for v, p in zip(values, points, strict=True)]


def _losing(after: list[int], active: Sequence[bool]) -> list[float]:
    weights = [float(max(0, c) ** 2) if active[s] else 0.0 for s, c in enumerate(after)]
    total = sum(weights)
    if total == 0:  # every seat still in lost its last counter: they share
        sharing = [s for s in range(len(after)) if active[s]]
        return [1.0 / len(sharing) if s in sharing else 0.0 for s in range(len(after))]
    return [w / total for w in weights]


def _winning(after: list[int], active: Sequence[bool], target: int) -> list[float]:
    reached = [s for s in range(len(after)) if active[s] and after[s] >= target]
    if reached:
        return [1.0 / len(reached) if s in reached else 0.0 for s in range(len(after))]
    weights = [2.0 ** after[s] if active[s] else 0.0 for s in range(len(after))]
    total = sum(weights)
    return [w / total for w in weights]
