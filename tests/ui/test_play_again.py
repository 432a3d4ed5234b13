""""Play again" pressed while the last match still lingers for the other seats: the end
is on the screen before the session's last wait is over, and the key is kept until the
match has finished, then the next match begins (it was dropped, and the person waited
at a screen that said "Enter: play again")."""

from __future__ import annotations

import asyncio

from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.matches import Matches

#: Seconds before the test gives up (a safety net only).
PATIENCE = 60.0


def test_play_again_during_the_linger_begins_the_next_match_after_it() -> None:
    async def scenario() -> tuple[list[str], list[MatchOutcome]]:
        lingering = asyncio.Event()
        said: list[str] = []

        async def match(person: object) -> MatchOutcome:
            said.append("begun")
            await lingering.wait()  # the session's linger: the end is shown already
            return MatchOutcome("oak", (0,), 1, 1, ())

        matches = Matches(match, lambda err: None)
        matches.begin(object())
        await asyncio.sleep(0)  # the first match is under way
        matches.then(lambda: said.append("again"))
        assert said == ["begun"]  # not while it lingers
        lingering.set()
        await asyncio.wait_for(_until(lambda: "again" in said), PATIENCE)
        return said, matches.outcomes

    said, outcomes = asyncio.run(scenario())
    assert said == ["begun", "again"] and len(outcomes) == 1


def test_play_again_with_no_match_under_way_begins_at_once() -> None:
    async def scenario() -> list[str]:
        said: list[str] = []
        Matches(_never, lambda err: None).then(lambda: said.append("again"))
        return said

    assert asyncio.run(scenario()) == ["again"]


def test_leaving_forgets_a_play_again_not_yet_begun() -> None:
    async def scenario() -> list[str]:
        said: list[str] = []
        matches = Matches(_never, lambda err: None)
        matches.begin(object())
        await asyncio.sleep(0)
        matches.then(lambda: said.append("again"))
        await matches.stop()
        return said

    assert asyncio.run(scenario()) == []


async def _never(person: object) -> MatchOutcome:
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


async def _until(check: object) -> None:
    assert callable(check)
    while not check():
        await asyncio.sleep(0)
