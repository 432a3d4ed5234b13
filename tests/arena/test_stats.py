"""The arena's statistics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from lodam_p2p.arena.stats import (
    finishing_ranks,
    normal_interval,
    wilson_interval,
    win_parts,
    z_for,
)
from lodam_p2p.arena.summary import MatchRecord, compare, group_differences, summarize


def test_wilson_interval_of_8_in_10() -> None:
    # p = 0.8, z² = 3.8416: centre = (0.8 + 0.19208) / 1.38416 = 0.716738,
    # half = 1.96·√(0.016 + 0.009604) / 1.38416 = 0.226589
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.490162, abs=1e-5)
    assert high == pytest.approx(0.943327, abs=1e-5)


def test_wilson_interval_at_the_edges_stays_inside_0_1() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert high == pytest.approx(3.8416 / 23.8416, abs=1e-5)  # z²/(n + z²)
    assert wilson_interval(20, 20)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_z_for_common_confidences() -> None:
    assert z_for(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(ValueError):
        z_for(1.0)


def test_normal_interval_by_hand() -> None:
    # mean 0.75; s² = (3·0.0625 + 0.5625) / 3 = 0.25; se = 0.5/2 = 0.25
    result = normal_interval([1, 0, 1, 1], z=2.0)
    assert result.mean == pytest.approx(0.75)
    assert (result.low, result.high) == (pytest.approx(0.25), pytest.approx(1.25))
    assert result.excludes(0.0) and not result.excludes(1.0)
    assert math.isinf(normal_interval([0.5]).high)


def test_finishing_ranks_share_ties() -> None:
    inf = math.inf
    keys = [(inf, 2.0), (1.0, 0.0), (1.0, 0.0), (0.0, 0.0)]
    assert finishing_ranks(keys) == [1.0, 2.5, 2.5, 4.0]
    assert finishing_ranks([(3.0, 0.0)] * 3) == [2.0, 2.0, 2.0]


def test_shared_wins_split_equally() -> None:
    assert win_parts((1, 2), ("h", "r", "r")) == {"r": 1.0}
    assert win_parts((0, 2), ("h", "r", "r")) == {"h": 0.5, "r": 0.5}


def record(winners: tuple[int, ...], **fields: object) -> MatchRecord:
    base: dict[str, object] = {
        "group": 0, "rotation": 0, "variant": 0, "seat_bots": ("h", "r", "r"),
        "winners": winners, "ranks": (1.0, 2.0, 3.0), "counters_lost": (0, 3, 3),
        "counters_gained": (0, 0, 0), "deals_in": (6, 6, 4), "deals": 6, "finished": True,
    }
    base.update(fields)
    return MatchRecord(**base)  # type: ignore[arg-type]


def test_summary_by_hand() -> None:
    records = [
        record((0,)),
        record((0, 2), ranks=(1.5, 3.0, 1.5), counters_lost=(3, 3, 3), deals_in=(5, 5, 5)),
    ]
    bots = summarize(records)
    assert bots["h"].win_share == pytest.approx(0.75)  # 1 + 1/2 of 2 matches
    assert bots["r"].win_share == pytest.approx(0.25)
    assert bots["h"].fair_share == pytest.approx(1 / 3)
    assert bots["r"].fair_share == pytest.approx(2 / 3)
    assert bots["h"].mean_rank == pytest.approx(1.25)
    assert bots["r"].mean_rank == pytest.approx((2 + 3 + 3 + 1.5) / 4)
    assert bots["h"].counters_lost_per_deal == pytest.approx(3 / 11)
    assert bots["r"].counters_lost_per_deal == pytest.approx(12 / 20)
    assert bots["h"].ci95 == wilson_interval_of(1.5, 2)


def wilson_interval_of(wins: float, matches: int) -> tuple[float, float]:
    return wilson_interval(wins, matches)


def test_paired_difference_uses_groups_as_units() -> None:
    def pair(group: int, rotation: int, a_wins: bool, b_wins: bool) -> list[MatchRecord]:
        return [
            record((0,) if a_wins else (1,), group=group, rotation=rotation, variant=0,
                   candidate=0),
            record((0,) if b_wins else (1,), group=group, rotation=rotation, variant=1,
                   candidate=0),
        ]

    records = [
        *pair(0, 0, True, False), *pair(0, 1, True, True),   # group 0: d = (1 + 0) / 2
        *pair(1, 0, False, False), *pair(1, 1, True, False),  # group 1: d = (0 + 1) / 2
        *pair(2, 0, True, True), *pair(2, 1, False, False),  # group 2: d = 0
    ]
    assert group_differences(records) == [0.5, 0.5, 0.0]
    result = compare(records, "a", "b")
    assert result.pairs == 6 and result.groups == 3
    assert result.a_win_share == pytest.approx(4 / 6)
    assert result.b_win_share == pytest.approx(2 / 6)
    # mean 1/3, s² = (1/36 + 1/36 + 4/36) / 2 = 1/12, se = √(1/36) = 1/6
    assert result.difference.mean == pytest.approx(1 / 3)
    assert result.difference.high - result.difference.mean == pytest.approx(1.959964 / 6)
