"""The Lorum end-of-match panel lists the seats in the table's order: a seat that left
while leading on points is shown last, not first by its points."""

from __future__ import annotations

import re

from lodam_p2p.games.lorum import Contract
from lodam_p2p.ui.lorum.model import LorumPanel, ScoreSheet
from tests.ui.test_lorum_render import screen, start, table


def places(text: str) -> list[str]:
    """The names on the panel's place lines (`` 1. Moll   16 points``), first place first."""
    return re.findall(r"\b\d\. (\w+) +\d+ points", text)


def test_the_seat_that_left_leading_is_listed_last() -> None:
    match, deal = start(4, Contract.REDS)
    for seat in (1, 2, 2, 3):  # seat 0 ("you") has the fewest points
        match.breach(seat)
    model = table(match, deal)
    model.match_over((1,), ScoreSheet.from_match(match), (1, 3, 2, 0))
    assert model.panel is LorumPanel.MATCH_END
    assert places(screen(model)) == [model.name(1), model.name(3), model.name(2), "you"]


def test_without_the_tables_order_the_points_decide() -> None:
    match, deal = start(4, Contract.REDS)
    for seat in (1, 2, 2, 3):
        match.breach(seat)
    model = table(match, deal)
    model.match_over((0,), ScoreSheet.from_match(match))
    assert places(screen(model))[0] == "you"
