"""The local player at a table machine: asked by an event, answered through ``receive``.

:class:`Asking` is a part the table machine owns and calls (its ``asking``), reaching it
only through :class:`AskingTable`. When the public deal awaits this seat, it leaves an
:class:`~lodam_p2p.session.effects.AskPlayer` event (once per step) for the machine's
runner, which runs the player's decision and feeds the answer back as
:class:`~lodam_p2p.session.effects.Decided`. An answer for another step is stale and
dropped; an illegal one is refused and asked again, up to :data:`MAX_REFUSALS` times in
a row, after which the seat's first legal answer (the engine lists defaults first) is
taken. Pure: the machine never waits for the player.
"""

from __future__ import annotations

from typing import Protocol

from lodam_p2p.player import Notice, NoticeLevel, TableEvent
from lodam_p2p.session.effects import AskPlayer, Decided, Event
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.wire import Body
from lodam_p2p.tableplan import SeatPlan

#: Refused answers in a row after which the seat's default (or first legal) is taken.
MAX_REFUSALS = 5


class AskingTable(Protocol):
    """What the player's part reads and calls on the table machine that owns it."""

    events: list[Event]
    plan: SeatPlan | None
    hand: HandMachine | None  #: the hand under way (None between hands)
    hand_no: int

    def now(self) -> float: ...
    def tell(self, event: TableEvent) -> None: ...
    def drain_hand(self) -> None: ...
    def send(self, body: Body) -> None: ...


class Asking:
    """Asks the local player and takes its answers (see the module docstring)."""

    def __init__(self, table: AskingTable) -> None:
        self.table = table
        self.refusals = 0
        #: the step last asked, (hand, step)
        self.asked: tuple[int, int] | None = None

    def maybe_ask(self) -> None:
        """Ask the player, once per step, when the hand awaits this seat."""
        t = self.table
        hand = t.hand
        if t.plan is None or hand is None or not hand.my_turn():
            return
        key = (t.hand_no, hand.step)
        if self.asked == key:
            return
        self.asked = key
        self._ask(key)

    def _ask(self, key: tuple[int, int]) -> None:
        """Ask the player for step ``key`` (the runner runs its decision)."""
        t = self.table
        assert t.hand is not None
        t.events.append(AskPlayer(key[0], key[1], t.hand.view()))

    def decided(self, decided: Decided) -> None:
        """The player's answer: taken if it is for the step awaited and legal there."""
        t = self.table
        hand = t.hand
        if hand is None or (decided.hand, decided.step) != (t.hand_no, hand.step):
            return
        if not hand.my_turn():
            return
        view = hand.view()
        action = decided.action
        if not view.legal:  # the seat's cards are still arriving: ask again once they are
            self.asked = None
            return
        if action is None or action not in view.legal:
            self.refusals += 1
            if self.refusals < MAX_REFUSALS:
                t.tell(Notice(NoticeLevel.WARNING,
                              f"refused: {action} is not a legal answer now"))
                self._ask((t.hand_no, hand.step))
                return
            action = view.legal[0]  # the engine lists defaults first
        self.refusals = 0
        body = hand.act(action, t.now())
        t.drain_hand()
        t.send(body)
