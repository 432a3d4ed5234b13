"""A match ended by a seat's silence says so in words, and its standings agree."""

from __future__ import annotations

import asyncio
import dataclasses

from lodam_p2p.games.lodam import Action, Options, PlayerView
from lodam_p2p.player import MatchEnded, TableEvent
from lodam_p2p.session.verdict import early_reason, verdict_standings
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import QUICK, bots, run_all, table
from tests.support.virtual import run_on_table_clock as run

BLAMES = ["seat 2: timeout: no answer within 30 s (hand 7)",
          "seat 2: timeout: no offer within 30 s (hand 8)",
          "seat 2: timeout: no answer within 30 s (hand 9)"]


def test_three_silent_hands_are_told_in_words() -> None:
    text = early_reason(seated=True, started=True, grace_over=False, voids=3, blamed=2,
                        blames=BLAMES)
    assert text == "seat 2 did not answer three times: the match ends"


def test_other_early_ends_are_told_too() -> None:
    def reason(**kw: object) -> str:
        args: dict[str, object] = {"seated": True, "started": True, "grace_over": False,
                                   "voids": 1, "blamed": 1, "blames": BLAMES[:1]}
        return early_reason(**{**args, **kw})  # type: ignore[arg-type]

    assert reason(grace_over=True) == "seat 1 left and did not come back: the match ends"
    assert "never began" in reason(seated=False) and "fill" in reason(seated=False)
    assert reason(started=False, blamed=None, blames=["seat 4: lot: bad reveal"]).startswith(
        "seat 4 spoiled the draw")
    mixed = reason(voids=3, blamed=2, blames=["seat 1: timeout: x (hand 1)", *BLAMES[:2]])
    assert mixed.startswith("3 hands in a row were void, the last one by seat 2")


def test_an_exit_with_no_void_hand_before_it_is_told_by_its_blame() -> None:
    def reason(line: str) -> str:
        return early_reason(seated=True, started=True, grace_over=False, voids=0, blamed=3,
                            blames=["seat 1: timeout: x (hand 1)", line])

    assert reason("seat 3: left: forfeited (hand 1)") == \
        "seat 3 left the match: the match ends"
    assert reason("seat 3: timeout: silent (hand 1)") == \
        "seat 3 did not answer in time: the match ends"
    assert reason("seat 3: share-proof: bad (hand 1)") == \
        "seat 3 failed the share-proof check: the match ends"
    assert "0 hands" not in reason("nothing to read")


def test_the_standings_put_the_verdicts_winners_first() -> None:
    # seat 2 (silent, most counters) was first by counters; seat 0 is out already
    assert verdict_standings((2, 1, 0), (1,), (1, 2), 2) == (1, 2, 0)
    assert verdict_standings((1, 0, 2), (1,), (0, 1, 2), None) == (1, 0, 2)


class Mute:
    """A bot seat that stays connected and never answers."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)

    async def decide(self, view: PlayerView) -> Action:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class Keeper:
    """Wraps a bot and keeps the events it is told."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)
        self.inner.notify(event)  # type: ignore[attr-defined]

    async def decide(self, view: PlayerView) -> Action:
        return await self.inner.decide(view)  # type: ignore[attr-defined, no-any-return]


def test_every_seat_is_told_why_a_silent_seat_ended_the_match() -> None:
    keepers = [Keeper(plan.player) for plan in bots(["heuristic", "heuristic"])]
    seats = [SeatPlan(f"bot{i}", k, "bot:heuristic") for i, k in enumerate(keepers)]
    seats.append(SeatPlan("Moll", Mute(), "bot:heuristic"))
    timing = dataclasses.replace(QUICK, timeout_s=4.0)
    outcomes = run(run_all(table(MemoryHub(), seats, Options(lives=3), timing=timing)), 120)
    assert outcomes[0].blames and all(b.startswith("seat 2: timeout") for b in outcomes[0].blames)
    for keeper in keepers:
        ended = [e for e in keeper.events if isinstance(e, MatchEnded)]
        assert len(ended) == 1
        end = ended[0]
        # silence is a table vote: the silent seat is put out and the others play on
        assert end.reason == "seat 2 did not answer in time and was put out of the match"
        assert 2 not in end.winners and end.standings[0] in end.winners
        assert end.winners == outcomes[0].winners
