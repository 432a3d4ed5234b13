"""Test support: table machines wired by a tiny router on a fake clock — no event loop,
no link, no broker.

The router does what the runners and the links do between real peers: every body a
machine publishes reaches every other machine (as its link would deliver it, already
authenticated), every seat's presence is seen, the machines' effects are carried out
(:func:`~lodam_p2p.session.effects.carry_out`) and the players' decisions
(:class:`~lodam_p2p.session.effects.AskPlayer`) are taken from the bots at once. The
clock moves only when a test moves it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games import Game
from lodam_p2p.player import Player
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import Admit, AskPlayer, Decided, carry_out
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.link import Delivered, PresenceSeen
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import Body, peer_name, raw_public
from lodam_p2p.tableplan import SeatPlan

TABLE = "elm"


@dataclass(frozen=True)
class Spot:
    """Where a machine sits (a :class:`~lodam_p2p.session.effects.Place`)."""

    table: str
    identity: Ed25519PrivateKey
    peer: str


def machines(plans: Sequence[SeatPlan], options: Any, *, timing: Timing, seed: int = 1,
             game: Game | None = None) -> list[TableMachine]:
    """The host's watcher (first) and one machine per seat, with seeded secrets."""
    entropies = [seeded(seed, place) for place in range(len(plans) + 1)]
    spots = []
    for entropy in entropies:
        identity = new_identity(entropy)
        spots.append(Spot(TABLE, identity, peer_name(raw_public(identity))))
    host, *seats = spots
    desk = HostDesk(TABLE, host.peer, len(plans), options, tuple(s.peer for s in seats),
                    limit_s=timing.timeout_s, game=game)
    return [TableMachine(host, plan=None, entropy=entropies[0], timing=timing,
                         host=host.peer, desk=desk)] + [
        TableMachine(spot, plan=plan, entropy=entropy, timing=timing, host=host.peer)
        for spot, plan, entropy in zip(seats, plans, entropies[1:], strict=True)]


def decide_now(player: Player, view: Any) -> Any:
    """The player's answer, from a ``decide`` that never waits (a bot's)."""
    answer = player.decide(view)
    try:
        answer.send(None)
    except StopIteration as done:
        return done.value
    answer.close()
    raise AssertionError("the player waited for something")


class Router:
    """Carries bodies, presences and decisions between ``machines`` (see the module
    docstring). Machines are strict: whatever a handler lets out fails the test."""

    def __init__(self, table: Sequence[TableMachine], now: float = 1000.0) -> None:
        self.machines = list(table)
        self.now = now
        #: peers whose player never answers
        self.mute: set[str] = set()
        #: every body each peer published, in order
        self.sent: dict[str, list[Body]] = defaultdict(list)
        self.asked: dict[str, list[AskPlayer]] = defaultdict(list)
        self.admitted: dict[str, frozenset[str]] = {}
        for machine in self.machines:
            machine.strict = True

    def start(self) -> None:
        """Start every machine; everybody's presence is seen by everybody."""
        for machine in self.machines:
            machine.start(self.now)
        for machine in self.machines:
            for other in self.machines:
                if other is not machine:
                    machine.receive(PresenceSeen(other.me, True), self.now)

    def deliver(self, sender: TableMachine, data: bytes) -> None:
        """``data`` (an encoded body) from ``sender`` to every other machine."""
        pubkey = raw_public(sender.identity)
        for machine in self.machines:
            if machine is not sender:
                machine.receive(Delivered(sender.me, pubkey, data), self.now)

    def pump(self) -> bool:
        """One round: each machine moves and the router carries what it said; True if
        any machine said anything."""
        said = False
        for machine in self.machines:
            machine.handle_timer(self.now)
            said = self._carry(machine) or said
        return said

    def _carry(self, machine: TableMachine) -> bool:
        events, machine.events = machine.events, []
        bodies, machine.outgoing = machine.outgoing, []
        machine.retained.clear()
        player = machine.plan.player if machine.plan is not None else None
        for event in events:
            if carry_out(event, player=player, spectator=machine.spectator,
                         journal=machine.journal):
                continue
            if isinstance(event, Admit):
                self.admitted[machine.me] = event.peers
            elif isinstance(event, AskPlayer) and machine.me not in self.mute:
                assert machine.plan is not None
                self.asked[machine.me].append(event)
                action = decide_now(machine.plan.player, event.view)
                machine.receive(Decided(event.hand, event.step, action), self.now)
        for body in bodies:
            self.sent[machine.me].append(body)
            self.deliver(machine, body.encode())
        return bool(events or bodies)

    def settle(self, rounds: int = 20_000) -> None:
        """Pump until nothing moves at this time."""
        for _ in range(rounds):
            if not self.pump():
                return
        raise AssertionError("the table never settled")

    def until(self, what: str, check: Any, rounds: int = 20_000) -> None:
        """Pump until ``check()`` holds (the clock stands still)."""
        for _ in range(rounds):
            if check():
                return
            if not self.pump():
                break
        if not check():
            raise AssertionError(f"never happened: {what}")

    def play_out(self, turns: int = 1000) -> None:
        """Settle; whenever nothing moves, move the clock to the next deadline; until
        every machine is done."""
        for _ in range(turns):
            self.settle()
            if all(machine.done for machine in self.machines):
                return
            dues = [due for machine in self.machines if not machine.done
                    and (due := machine.timer()) is not None]
            assert dues, "waiting with no deadline"
            self.now = max(self.now, min(dues))
        raise AssertionError("the match never ended")


def with_cheater(monkeypatch: Any, cheater: type, seat: int, *, timing: Timing,
                 seats: int = 4) -> tuple[list[Any], Router, list[TableMachine]]:
    """A match of random bots in which ``seat``'s fair-deal hands are ``cheater``'s (a
    ``Hand`` subclass), played out: every hand made (the watcher's and the seats'), the
    router, and the machines (the watcher first)."""
    from lodam_p2p.fairdeal import Hand
    from lodam_p2p.games.lodam import Options
    from lodam_p2p.session import handplay
    from tests.session.helpers import bots

    made: list[Any] = []

    def hand(config: Any, at: int | None, *args: Any, **kwargs: Any) -> Hand:
        made.append((cheater if at == seat else Hand)(config, at, *args, **kwargs))
        return made[-1]

    monkeypatch.setattr(handplay, "Hand", hand)
    table = machines(bots(["random"] * seats), Options(lives=1), timing=timing)
    router = Router(table)
    router.start()
    router.play_out()
    return made, router, table
