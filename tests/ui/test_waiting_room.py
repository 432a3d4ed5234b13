"""The waiting room before the first deal: every seat by its name, a long name cut."""

from __future__ import annotations

from lodam_p2p.player import SeatInfo
from lodam_p2p.ui.waiting import seat_list


def _text(lines: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(text for _, text in line) for line in lines]


def test_a_name_longer_than_the_limit_is_cut_and_the_columns_hold() -> None:
    seats = [SeatInfo(0, "Ann", "human"), SeatInfo(1, "B" * 500, "human"),
             SeatInfo(2, "Moll", "bot:heuristic")]
    lines = _text(seat_list("waiting", seats, wanted=4, me=0, notice=None))
    rows = [line for line in lines if line[:4].strip().endswith(".")]
    assert rows[0].startswith(" 1. you ") and "Ann, person" in rows[0]
    assert rows[1].startswith(" 2. " + "B" * 23 + "…") and "B" * 24 not in rows[1]
    assert all(len(row) < 80 for row in rows)
    # the second column starts at one place on every row, whatever the name's length
    starts = {row.index(word) for row, word in zip(
        rows, ("Ann, person", "person", "bot heuristic", "waiting for a player"), strict=True)}
    assert len(starts) == 1


def test_my_own_long_name_is_cut_too() -> None:
    lines = _text(seat_list("waiting", [SeatInfo(0, "Z" * 300, "human")], wanted=3, me=0,
                            notice=None))
    mine = next(line for line in lines if line.startswith(" 1."))
    assert "Z" * 23 + "…, person" in mine and "Z" * 24 not in mine
