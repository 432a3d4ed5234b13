"""From match records to the figures the arena reports, per bot name."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lodam_p2p.arena.stats import (
    Z95,
    MeanInterval,
    normal_interval,
    wilson_interval,
    win_parts,
)
from lodam_p2p.bots.budget import percentiles


@dataclass(frozen=True, slots=True)
class BotFailure:
    """A bot that raised, gave a refused answer or went over its budget; the move was
    played by the fallback, which kept the seat for the rest of the match."""

    seat: int
    bot: str
    message: str
    kind: str = "illegal"  #: one of :data:`lodam_p2p.bots.faults.KINDS`
    decision: str = "?"  #: what was asked (``PLAY`` …)
    trace: str = ""  #: the traceback of an exception in ``decide``


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """What one arena match came to (plain values: it crosses process boundaries)."""

    group: int  #: the rotation group (its deals share one deck stream and first dealer)
    rotation: int  #: which rotation of the line-up within the group
    variant: int  #: 0; in a paired comparison 0 with bot A and 1 with bot B
    seat_bots: tuple[str, ...]  #: bot name per seat
    winners: tuple[int, ...]  #: empty when the match hit the deal cap
    ranks: tuple[float, ...]  #: finishing rank per seat (1 best; ties share)
    counters_lost: tuple[int, ...]
    counters_gained: tuple[int, ...]
    deals_in: tuple[int, ...]  #: deals each seat was dealt into
    deals: int
    finished: bool
    candidate: int | None = None  #: the seat of the compared bot, in a paired comparison
    failures: tuple[BotFailure, ...] = field(default=())
    #: ``(bot name, seconds of each of its decisions)``, by the arena's clock.
    #: (measured, so not part of a record's equality: ``--jobs N`` plays what 1 plays)
    decision_times: tuple[tuple[str, tuple[float, ...]], ...] = field(default=(),
                                                                       compare=False)


def decision_ms(records: Iterable[MatchRecord]) -> dict[str, dict[str, float]]:
    """Per bot name, the percentiles of its decisions' times in milliseconds
    (``p50``, ``p90``, ``p99``, ``max``; :func:`lodam_p2p.bots.budget.percentiles`),
    over the decisions it made itself (not its fallback's)."""
    gathered: dict[str, list[float]] = {}
    for record in records:
        for name, times in record.decision_times:
            gathered.setdefault(name, []).extend(times)
    return {name: {key: round(value * 1000, 3) for key, value in percentiles(times).items()}
            for name, times in gathered.items() if times}


@dataclass(frozen=True, slots=True)
class BotSummary:
    """The figures of one bot name over all matches."""

    name: str
    seats: float  #: seats per match running it (a mean in a paired comparison)
    win_share: float
    ci95: tuple[float, float]
    fair_share: float
    mean_rank: float
    counters_lost_per_deal: float
    counters_gained_per_deal: float
    wins: float
    errors: int

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``--json`` (required keys first, extras after)."""
        return {
            "win_share": self.win_share,
            "ci95": [self.ci95[0], self.ci95[1]],
            "fair_share": self.fair_share,
            "mean_rank": self.mean_rank,
            "counters_lost_per_deal": self.counters_lost_per_deal,
            "seats": self.seats,
            "wins": self.wins,
            "counters_gained_per_deal": self.counters_gained_per_deal,
            "errors": self.errors,
        }


@dataclass(slots=True)
class _Tally:
    seats: int = 0
    wins: float = 0.0
    rank_sum: float = 0.0
    lost: int = 0
    gained: int = 0
    deals_in: int = 0
    errors: int = 0


def summarize(records: Sequence[MatchRecord]) -> dict[str, BotSummary]:
    """Per bot name (in order of first appearance): win share, interval, rank, counters."""
    tallies: dict[str, _Tally] = {}
    all_seats = 0
    for record in records:
        all_seats += len(record.seat_bots)
        for seat, name in enumerate(record.seat_bots):
            tally = tallies.setdefault(name, _Tally())
            tally.seats += 1
            tally.rank_sum += record.ranks[seat]
            tally.lost += record.counters_lost[seat]
            tally.gained += record.counters_gained[seat]
            tally.deals_in += record.deals_in[seat]
        for name, part in win_parts(record.winners, record.seat_bots).items():
            tallies[name].wins += part
        for failure in record.failures:
            tallies.setdefault(failure.bot, _Tally()).errors += 1
    matches = len(records)
    return {
        name: _summary(name, tally, matches, all_seats) for name, tally in tallies.items()
    }


def _summary(name: str, tally: _Tally, matches: int, all_seats: int) -> BotSummary:
    def ratio(a: float, b: float) -> float:
        return a / b if b else 0.0

    wins = round(tally.wins, 9)  # sums of 1/k parts: keep inside [0, matches]
    return BotSummary(
        name=name,
        seats=round(ratio(tally.seats, matches), 6),
        win_share=ratio(wins, matches),
        ci95=wilson_interval(min(wins, matches), matches),
        fair_share=ratio(tally.seats, all_seats),
        mean_rank=ratio(tally.rank_sum, tally.seats),
        counters_lost_per_deal=ratio(tally.lost, tally.deals_in),
        counters_gained_per_deal=ratio(tally.gained, tally.deals_in),
        wins=wins,
        errors=tally.errors,
    )


@dataclass(frozen=True, slots=True)
class Comparison:
    """Bot A against bot B from the same seat on the same deals."""

    a: str
    b: str
    pairs: int
    groups: int
    a_win_share: float
    b_win_share: float
    difference: MeanInterval  #: of win(A) − win(B), 95%
    stopped_early: bool = False

    def to_json(self) -> dict[str, object]:
        """The ``comparison`` object of ``--json``."""
        diff = self.difference
        return {
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "groups": self.groups,
            "a_win_share": self.a_win_share,
            "b_win_share": self.b_win_share,
            "difference": diff.mean,
            "ci95": [_finite(diff.low), _finite(diff.high)],
            "stopped_early": self.stopped_early,
        }


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def candidate_win(record: MatchRecord) -> float:
    """The part of the match won by the compared seat."""
    if record.candidate is None or record.candidate not in record.winners:
        return 0.0
    return 1 / len(record.winners)


def group_differences(records: Iterable[MatchRecord]) -> list[float]:
    """Per rotation group, the mean of ``win(A) − win(B)`` over its pairs, by group."""
    by_pair: dict[tuple[int, int], list[float]] = {}
    for record in records:
        pair = by_pair.setdefault((record.group, record.rotation), [0.0, 0.0])
        pair[record.variant] = candidate_win(record)
    by_group: dict[int, list[float]] = {}
    for (group, _rotation), (win_a, win_b) in sorted(by_pair.items()):
        by_group.setdefault(group, []).append(win_a - win_b)
    return [math.fsum(diffs) / len(diffs) for _group, diffs in sorted(by_group.items())]


def compare(
    records: Sequence[MatchRecord], a: str, b: str, z: float = Z95, stopped_early: bool = False
) -> Comparison:
    """The paired comparison of A (variant 0) and B (variant 1) over ``records``."""
    groups = group_differences(records)
    wins = [0.0, 0.0]
    counts = [0, 0]
    for record in records:
        wins[record.variant] += candidate_win(record)
        counts[record.variant] += 1
    return Comparison(
        a=a,
        b=b,
        pairs=counts[0],
        groups=len(groups),
        a_win_share=wins[0] / counts[0] if counts[0] else 0.0,
        b_win_share=wins[1] / counts[1] if counts[1] else 0.0,
        difference=normal_interval(groups, z),
        stopped_early=stopped_early,
    )
