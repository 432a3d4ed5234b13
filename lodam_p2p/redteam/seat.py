"""A malicious seat: a session that plays like the random bot and mounts one attack.

:class:`Adversary` is a :class:`~lodam_p2p.session.seat.Session` whose attack
(:mod:`.attacks`) sees every body before it is published, every turn of the loop,
every decision of its player and the roster at the start. It runs as ``lodam
adversary KIND``; its report (:meth:`Adversary.report`) is the JSON line that command
prints: the attack's kind, the seat, whether the attack was mounted, what it learned
that its own view did not allow, and the table's result as this seat saw it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from lodam_p2p.redteam.attacks.envelope import ATTACKS, Attack, relink
from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.effects import Decided
from lodam_p2p.session.runner import Session
from lodam_p2p.session.wire import Body

log = logging.getLogger("lodam_p2p.adversary")


class Adversary(Session):
    """A session that cheats in the way its ``attack`` says (see the module docstring)."""

    def __init__(self, *args: Any, attack: Attack, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.attack = attack
        self._seated = False
        #: digests of this seat's envelopes replaced by others → the replacements' digests
        self.relinked: dict[bytes, bytes] = {}

    def send(self, body: Body) -> None:
        """Publish what the attack makes of ``body`` (chained to what it replaced)."""
        for out in self.attack.outgoing(self, body):
            envelopes = tuple(relink(self, e) for e in out.envelopes)
            super().send(replace(out, envelopes=envelopes) if self.relinked else out)

    def _after(self) -> bool:
        moved = super()._after()
        if not self._seated and self.roster is not None and self.seat is not None:
            self._seated = True
            self.attack.seated(self)
        if self.phase is SessionPhase.MATCH:
            try:
                self.attack.tick(self)
            except Exception as err:  # an attack that cannot be mounted is not mounted
                log.warning("the %s attack failed: %r", self.attack.kind, err)
        return moved

    def _ask(self, key: tuple[int, int]) -> None:
        if not self.attack.withholds(self):
            super()._ask(key)

    def _decided(self, decided: Decided) -> None:
        hand, action = self.hand, decided.action
        if (hand is None or action is None or (decided.hand, decided.step)
                != (self.hand_no, hand.step) or not hand.my_turn()):
            super()._decided(decided)
            return
        view = hand.view()
        chosen = self.attack.decide(self, view, action)
        if chosen in view.legal:
            super()._decided(Decided(decided.hand, decided.step, chosen))
            return
        body = hand.act(chosen, self.now())  # what no honest seat would send
        self.drain_hand()
        self.send(body)

    def report(self) -> dict[str, object]:
        """The JSON line of ``lodam adversary``."""
        return {"kind": self.attack.kind, "seat": self.seat, "attempted": self.attack.attempted,
                "learned": sorted(set(self.attack.learned)),
                "result": None if self.outcome is None else self.outcome.to_json()}


def attack_named(kind: str) -> Attack:
    """A fresh attack of ``kind``; ``KeyError`` if there is none."""
    return ATTACKS[kind]()
