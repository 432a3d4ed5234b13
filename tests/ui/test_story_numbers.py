"""The story of a table of bots (``lodam play --bots-only``) numbers each deal as the
table does and names the seats the table's notices number."""

from __future__ import annotations

import io
from typing import Any

from lodam_p2p.player import Notice, NoticeLevel, SeatInfo, SeatsChanged, ViewChanged
from lodam_p2p.ui.lodam.spectator import SpectatorLog
from tests.ui.support import new_deal


class Quiet:
    """The wrapped bot: told everything, says nothing."""

    def notify(self, event: Any) -> None:
        pass

    async def decide(self, view: Any) -> Any:  # never asked here
        raise AssertionError(view)


def _story() -> tuple[SpectatorLog, io.StringIO]:
    out = io.StringIO()
    story = SpectatorLog(Quiet(), out)
    story.notify(SeatsChanged(tuple(SeatInfo(s, n, "bot:random")
                                    for s, n in enumerate(("Moll", "Ned", "Bess"))), 0, 3))
    return story, out


def test_the_story_numbers_a_deal_as_the_table_does() -> None:
    story, out = _story()
    story.notify(ViewChanged(new_deal(3).view(0), deal=4))  # the table is at its fourth
    assert "Deal 4" in out.getvalue() and "Deal 1" not in out.getvalue()


def test_the_story_names_the_seats_a_notice_numbers() -> None:
    story, out = _story()
    story.notify(Notice(NoticeLevel.INFO, "seat 2 is back"))
    assert "[info] Bess is back" in out.getvalue()
