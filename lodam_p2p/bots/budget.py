"""Thinking time: every bot type has a per-decision budget.

A type declares it (``BotType(..., budget_s=0.2)``) or plays with
:data:`DEFAULT_BUDGET_S`; ``lodam arena --budget SECONDS`` gives every bot another. The
arena measures each decision with its clock (injected, so tests need no waiting): a
decision that took longer than the budget plus :data:`MARGIN_S` is an error of kind
``over-budget`` (:mod:`lodam_p2p.bots.faults`), its move replaced by the fallback's.
At a networked table the table's time limit (``--timeout``, the same for every seat)
is what counts: a seat silent for longer is voted out, whatever its bot's budget. A
budget well under the table's limit leaves room for the network and the protocol.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The budget of a bot type that declares none, in seconds per decision.
DEFAULT_BUDGET_S = 1.0
#: Slack over the budget before a decision counts as over it (clock jitter, a GC pause).
MARGIN_S = 0.25


def over_budget(seconds: float, budget_s: float) -> bool:
    """Whether a decision of ``seconds`` broke a budget of ``budget_s``."""
    return seconds > budget_s + MARGIN_S


def check_budget(value: float | None, name: str) -> None:
    """``ValueError`` unless ``value`` is ``None`` or a positive finite number."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise ValueError(f"bot {name!r}: budget_s must be a positive number of seconds, "
                         f"not {value!r}")


def percentiles(samples: Sequence[float], points: Sequence[int] = (50, 90, 99)
                ) -> dict[str, float]:
    """``{"p50": …, "p90": …, "p99": …, "max": …}`` of ``samples`` (nearest rank);
    empty when there are none."""
    if not samples:
        return {}
    ordered = sorted(samples)
    out = {f"p{point}": ordered[max(0, math.ceil(point / 100 * len(ordered)) - 1)]
           for point in points}
    out["max"] = ordered[-1]
    return out
