"""A malicious seat: a table machine that plays like the random bot and mounts one attack.

:class:`Cheat` is a :class:`~lodam_p2p.session.seat.TableMachine` driven through its
public face only: the bodies it publishes (``send``), what the link and the player
deliver (``receive``), the turns of its loop (``start``, ``handle_timer``) and the events
it leaves for its runner. Its attack (:mod:`lodam_p2p.redteam.attacks`) sees every body
before it is published and every body heard, each turn of the loop, every decision of
its player, and the roster at the start. Two things only a runner can do — say that the
seat went away or came back (:meth:`Cheat.go`), publish raw bytes on the broker
(:meth:`Cheat.post`) — are left in lists on the bare machine (the tests' router carries
the first) and done at once by :class:`Adversary`, the cheat bound to a real link.

``lodam adversary KIND`` runs an :class:`Adversary`; its report (:meth:`Cheat.report`)
is the JSON line that command prints: the attack's kind, the seat, whether the attack
was mounted (and if not, why), what it learned or won that its own view did not allow,
and the table's result as this seat saw it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from lodam_p2p.redteam.attacks import ATTACKS, Attack, relink
from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.effects import AskPlayer, Decided
from lodam_p2p.session.link import Delivered
from lodam_p2p.session.runner import Session
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import BadMessage, Body, raw_public, seal_frame
from lodam_p2p.transport import PresenceSpec, TransportError, topics

__all__ = ["Adversary", "Cheat", "attack_named"]

log = logging.getLogger("lodam_p2p.adversary")

#: The first presence connection number a cheat claims when it fakes going away and
#: coming back: above any real connection's, so every peer takes it as the latest.
FAKE_CONN = 1_000_000


class Cheat(TableMachine):
    """A table machine that cheats in the way its ``attack`` says (module docstring)."""

    #: the hand under way: the attacks read their own hand's insides (a Lodam hand's
    #: pack and holdings), beyond what the machine needs of it (HandMachine)
    hand: Any

    def __init__(self, *args: Any, attack: Attack, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.attack = attack
        self._seated = False
        #: digests of this seat's envelopes replaced by others → the replacements' digests
        self.relinked: dict[bytes, bytes] = {}
        #: presence changes the seat pretends (True: back), for a runner to make known
        self.moves: list[bool] = []

    # --- the machine's public face, with the attack in between ---------------------------

    def start(self, now: float) -> None:
        """Begin (see :meth:`TableMachine.start`); the attack sees the lobby."""
        super().start(now)
        self._hook(self.attack.started, self)

    def send(self, body: Body) -> None:
        """Publish what the attack makes of ``body`` (chained to what it replaced)."""
        for out in self.attack.outgoing(self, body):
            envelopes = tuple(relink(self, e) for e in out.envelopes)
            super().send(replace(out, envelopes=envelopes) if self.relinked else out)

    def may_publish(self, body: Body) -> bool:
        """Always: a modified client keeps no guard against signing two envelopes for
        one (hand, seq) — the equivocation attacks are made of them."""
        return True

    def say(self, body: Body) -> None:
        """Publish ``body`` to the others without taking it here: a lie told to the
        table that the cheat's own machine does not act on."""
        self.outgoing.append(body)

    def receive(self, item: object, now: float) -> None:
        """Take ``item``; the attack hears bodies first and may change decisions."""
        if isinstance(item, Delivered):
            with contextlib.suppress(BadMessage):
                self._hook(self.attack.heard, self, item.sender, Body.decode(item.body))
        if isinstance(item, Decided) and self._cheated(item, now):
            return
        super().receive(item, now)
        self._withhold()

    def handle_timer(self, now: float) -> None:
        """Move the machine; then the attack's turn (and what it sent is taken at once)."""
        super().handle_timer(now)
        if not self._seated and self.roster is not None and self.seat is not None:
            self._seated = True
            self._hook(self.attack.seated, self)
        if self.phase is SessionPhase.MATCH:
            before = len(self.outgoing)
            self._hook(self.attack.tick, self)
            if len(self.outgoing) > before:
                super().handle_timer(now)
        self._withhold()

    def timer(self) -> float | None:
        """The machine's next deadline, or the attack's if it comes first."""
        dues = [d for d in (super().timer(), self.attack.due(self)) if d is not None]
        return min(dues, default=None)

    # --- what only a runner can do -------------------------------------------------------

    def go(self, online: bool) -> None:
        """Pretend this seat went away (``online`` False) or came back."""
        self.moves.append(online)

    def post(self, topic: str, payload: bytes) -> bool:
        """Publish ``payload`` on ``topic`` as is; False: this seat has no link."""
        return False

    def post_frame(self, frame: bytes) -> bool:
        """Sign ``frame`` (a stream frame) and publish it on this seat's own topic."""
        payload = seal_frame(self.identity, raw_public(self.identity), self.table, frame)
        return self.post(topics.peer_topic(self.table, self.me), payload)

    # --- the attack's hooks --------------------------------------------------------------

    def _hook(self, hook: Callable[..., None], *args: object) -> None:
        try:
            hook(*args)
        except Exception as err:  # an attack that cannot be mounted is not mounted
            if self.strict:
                raise
            log.warning("the %s attack failed: %r", self.attack.kind, err)

    def _cheated(self, decided: Decided, now: float) -> bool:
        """Send the attack's action instead of the player's, if it is one no honest seat
        would send; True if it did (an action it keeps legal goes the honest way)."""
        hand = self.hand
        if (hand is None or decided.action is None or not hand.my_turn()
                or (decided.hand, decided.step) != (self.hand_no, hand.step)):
            return False
        view = hand.view()
        if not view.legal:
            return False
        chosen = self.attack.decide(self, view, decided.action)
        if chosen in view.legal:
            if chosen is not decided.action:
                super().receive(Decided(decided.hand, decided.step, chosen), now)
                return True
            return False
        body = hand.act(chosen, now)  # what no honest seat would send
        self.drain_hand()
        self.send(body)
        return True

    def _withhold(self) -> None:
        """Keep the player's question from the runner while the attack withholds it."""
        if any(isinstance(e, AskPlayer) for e in self.events) and self.attack.withholds(self):
            self.events = [e for e in self.events if not isinstance(e, AskPlayer)]

    def report(self) -> dict[str, object]:
        """The JSON line of ``lodam adversary``."""
        attack = self.attack
        self._hook(attack.over, self)
        reason = attack.reason or "no chance to mount it came in this match"
        return {"kind": attack.kind, "seat": self.seat, "attempted": attack.attempted,
                "reason": None if attack.attempted else reason,
                "learned": sorted(set(attack.learned)),
                "result": None if self.outcome is None else self.outcome.to_json()}


class Adversary(Cheat, Session):
    """A :class:`Cheat` with its runner and link: what it pretends or posts goes out on
    the broker at once (in tasks of its own, beside the runner's publications)."""

    def __init__(self, *args: Any, attack: Attack, **kwargs: Any) -> None:
        super().__init__(*args, attack=attack, **kwargs)
        self._conn = FAKE_CONN
        self._tasks: set[asyncio.Task[None]] = set()

    def go(self, online: bool) -> None:
        """Publish a signed presence saying this seat is gone (or back), newer than any
        the connection said: every peer believes it, though the seat stays connected."""
        self._conn += 1
        spec = PresenceSpec(self.table, self.me, signer=self.identity.sign,
                            pubkey=raw_public(self.identity), epoch=self.link.endpoint.epoch)
        nonce = self.link.transport.nonce or "redteam"
        self._spawn(self.link.transport.publish(spec.topic, spec.payload(nonce, online,
                                                                         self._conn),
                                                retain=True))

    def post(self, topic: str, payload: bytes) -> bool:
        """Publish ``payload`` on ``topic``, as is."""
        self._spawn(self.link.transport.publish(topic, payload))
        return True

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        async def quietly() -> None:
            with contextlib.suppress(TransportError, OSError):
                await work

        task = asyncio.get_running_loop().create_task(quietly())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def attack_named(kind: str) -> Attack:
    """A fresh attack of ``kind``; ``KeyError`` if there is none."""
    return ATTACKS[kind]()
