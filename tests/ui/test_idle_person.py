"""The bots a person's process seats play on, whatever the person does.

At a networked table a seat's silence is timed: a bot held back for the person — who
reads the end of a deal before the bots go on — must never be held so long that its
seat is found silent. These matches run over the in-memory hub with the bots wired as
``lodam play``/``host`` wire them (:func:`~lodam_p2p.ui.pacing.paced_by`), and a person
who presses keys through the real :class:`~lodam_p2p.ui.lodam.controller.Controller`:

- knocked out early, then idle (gone for a drink): the match ends by play, no blame;
- idle at the end-of-deal panel from the first deal on: the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import DealEnded, MatchEnded, TableEvent
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from lodam_p2p.ui.lodam.controller import Controller
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.lodam.player import TerminalPlayer
from lodam_p2p.ui.pacing import HOLD_S, PacedPlayer, hold_limit, paced_by
from tests.session.helpers import PATIENT, bots, registry, table

#: Safety net, in seconds, for a whole match (a hang fails; it never passes by waiting).
PATIENCE = 150.0
#: A table whose first deal puts the person's seat out (checked by the test).
SEED = 1


class Person:
    """Keys for a :class:`TerminalPlayer`: ``h`` then Enter at each question, Enter at
    each end-of-deal panel — until ``idle()`` says the person has walked away."""

    def __init__(self, idle: Callable[[TableModel], bool]) -> None:
        self.model = TableModel(table="oak")
        self.player = TerminalPlayer(self.model)
        heuristic = registry().get("heuristic")
        self.keys = Controller(self.model, answer=self.player.answer, leave=lambda: None,
                               hint=lambda view: heuristic.make(view.seat, 0).decide(view),
                               panel_closed=self.player.panel_closed)
        self.idle = idle
        self.events: list[TableEvent] = []
        self.played_while_out = False
        self.player.changed = self._changed

    def _changed(self) -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(self._press)

    def _press(self) -> None:
        model = self.model
        if self.idle(model):
            return
        if model.panel is Panel.DEAL_END:
            self.keys.key("enter")
        elif model.panel is Panel.NONE and model.prompt is not None:
            self.keys.key("h")
            self.keys.key("enter")

    def seat(self) -> SeatPlan:
        """The person's seat; every event is also kept."""
        notify = self.player.notify

        def keep(event: TableEvent) -> None:
            self.events.append(event)
            was_out = self.model.out
            notify(event)
            if isinstance(event, DealEnded) and was_out:
                self.played_while_out = True  # a whole deal went on without the person

        self.player.notify = keep  # type: ignore[method-assign]
        return SeatPlan("ann", self.player)


async def _match(person: Person, limit: float | None, seed: int = SEED) -> list[MatchOutcome]:
    wrap = paced_by(person.player.hold, 0.0, limit)
    seats = [person.seat()] + [SeatPlan(s.name, wrap(s.player), s.kind)
                               for s in bots(["heuristic", "heuristic"])]
    sessions = table(MemoryHub(), seats, Options(lives=1), seed=seed, timing=PATIENT)
    return list(await asyncio.wait_for(
        asyncio.gather(*(s.run() for s in sessions)), PATIENCE))


def _check(outcomes: list[MatchOutcome]) -> MatchOutcome:
    first = outcomes[0]
    assert first.blames == (), first.blames
    assert first.winners and first.audits_passed == first.deals
    assert all(o.to_json() == first.to_json() for o in outcomes)
    return first


def test_hosted_bots_play_on_after_the_persons_seat_is_out_and_the_person_walks_away() -> None:
    person = Person(idle=lambda model: model.out)
    outcome = _check(asyncio.run(_match(person, hold_limit(PATIENT.timeout_s))))
    assert person.played_while_out, "the seed must put the person out before the end"
    assert 0 not in outcome.winners
    ended = [e for e in person.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].winners == outcome.winners
    assert person.model.panel is Panel.MATCH_END


def test_hosted_bots_play_on_while_the_person_never_closes_the_deal_end_panel() -> None:
    person = Person(idle=lambda model: model.deal_end is not None)
    _check(asyncio.run(_match(person, 0.2)))
    assert person.model.panel is Panel.MATCH_END


def test_the_hold_stays_well_within_the_bots_timeout() -> None:
    assert hold_limit(None) is None
    for timeout in (2.0, 30.0, 300.0):
        limit = hold_limit(timeout)
        assert limit is not None and limit <= timeout / 3 and limit <= HOLD_S


def test_a_paced_bot_waits_for_the_person_no_longer_than_the_limit() -> None:
    class Quick:
        def notify(self, event: TableEvent) -> None:
            pass

        async def decide(self, view: object) -> object:
            return "played"

    async def scenario() -> tuple[bool, object]:
        hold = asyncio.Event()  # the person reads, and reads on
        paced = PacedPlayer(Quick(), 0.0, hold, 0.05)  # type: ignore[arg-type]
        from tests.ui.support import new_deal

        view = new_deal(3).view(0)
        answer = await asyncio.wait_for(paced.decide(view), 30)
        return hold.is_set(), answer

    held, answer = asyncio.run(scenario())
    assert answer == "played" and not held
