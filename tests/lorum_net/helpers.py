"""Test support for Lorum tables: sessions on an in-memory hub, and cheating hands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lodam_p2p.games import Holder, get_game
from lodam_p2p.games.lorum.actions import Lay, Pass
from lodam_p2p.session import Session, Timing
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.table import _sessions
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots

LORUM = get_game("lorum")
#: A limit short enough to find a silent holder soon, long enough for a loaded machine.
BRISK = Timing(timeout_s=5.0, grace_s=5.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
               lobby_s=30.0)


def lorum_table(hub: MemoryHub, players: int, *options: str, seed: int = 1,
                timing: Timing = BRISK) -> list[Session]:
    """The host (a watcher) and one random bot session per seat, on ``hub``."""
    chosen = LORUM.parse_options(options)
    return _sessions("linden", chosen, players, bots(["random"] * players),
                     connect=hub.transport, seed=seed, timing=timing, spectator=None,
                     game=LORUM)


class PassingHand(GameHand):
    """Passes once, the first time it could lay a card (a breach the audit proves)."""

    cheated = False

    def act(self, action: Any, now: float) -> Body:
        if isinstance(action, Lay) and not PassingHand.cheated:
            PassingHand.cheated = True
            self._mine = Pass(action.seat)
            return self._body(Msg.MOVE, ("pass", [], None), [])
        return super().act(action, now)


class SilentHand(GameHand):
    """Holds back, once, a Quartet run card it holds: it never plays it."""

    silent_at: tuple[int, int] | None = None

    def awaited(self) -> tuple[int, Msg] | None:
        due = super().awaited()
        turn = self.game.turn(self.public)
        if due is not None and isinstance(turn, Holder) and SilentHand.silent_at in (
                None, (self.config.hand, self.step)):
            SilentHand.silent_at = (self.config.hand, self.step)
            return None
        return due


class EarlyOpenHand(GameHand):
    """Opens its secrets at once, the first time the deal awaits a run card that another
    seat holds: an attempt to have that holder named silent before it could play."""

    opened_at: tuple[int, int] | None = None

    def poll(self, now: float) -> None:
        super().poll(now)
        turn = self.holder_turn()
        if (EarlyOpenHand.opened_at is None and turn is not None
                and turn.card not in self.hand_cards()):
            EarlyOpenHand.opened_at = (self.number, self.step)
            self.stalled = True
            super().poll(now)


def cheat(sessions: Sequence[Session], seat: int, hand_type: type[GameHand]) -> None:
    """Seat ``seat`` (1 + its index: the host watcher is first) deals with ``hand_type``."""
    sessions[seat + 1].hand_type = hand_type
