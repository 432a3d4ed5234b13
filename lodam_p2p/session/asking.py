"""The local player at a table machine: asked by an event, answered through ``receive``.

A part of the table machine (:class:`~lodam_p2p.session.seat.TableMachine`). When the
public deal awaits this seat, the machine leaves an
:class:`~lodam_p2p.session.effects.AskPlayer` event (once per step) for its runner, which
runs the player's decision and feeds the answer back as
:class:`~lodam_p2p.session.effects.Decided`. An answer for another step is stale and
dropped; an illegal one is refused and asked again, up to :data:`MAX_REFUSALS` times in
a row, after which the seat's first legal answer (the engine lists defaults first) is
taken. Pure: the machine never waits for the player.
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.session.effects import AskPlayer, Decided
from lodam_p2p.session.seating import Seating

#: Refused answers in a row after which the seat's default (or first legal) is taken.
MAX_REFUSALS = 5


class Asking(Seating):
    """Asks the local player and takes its answers (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._refusals = 0
        self._asked: tuple[int, int] | None = None

    def _maybe_ask(self) -> None:
        hand = self.hand
        if self.plan is None or hand is None or not hand.my_turn():
            return
        key = (self.hand_no, hand.step)
        if self._asked == key:
            return
        self._asked = key
        self._ask(key)

    def _ask(self, key: tuple[int, int]) -> None:
        """Ask the player for step ``key`` (the runner runs its decision)."""
        assert self.hand is not None
        self.events.append(AskPlayer(key[0], key[1], self.hand.view()))

    def _decided(self, decided: Decided) -> None:
        hand = self.hand
        if hand is None or (decided.hand, decided.step) != (self.hand_no, hand.step):
            return
        if not hand.my_turn():
            return
        view = hand.view()
        action = decided.action
        if not view.legal:  # the seat's cards are still arriving: ask again once they are
            self._asked = None
            return
        if action is None or action not in view.legal:
            self._refusals += 1
            if self._refusals < MAX_REFUSALS:
                self.refuse(action)
                self._ask((self.hand_no, hand.step))
                return
            action = view.legal[0]  # the engine lists defaults first
        self._refusals = 0
        body = hand.act(action, self.now())
        self.drain_hand()
        self.send(body)
