"""Test support: bot seats, tables of sessions on an in-memory hub, quick timings."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.games.lodam import Action, Options, PlayerView
from lodam_p2p.player import TableEvent
from lodam_p2p.session import Session, Timing
from lodam_p2p.session.table import _sessions
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.memory import Faults, MemoryHub

#: Short waits, for tests where a seat must be found silent quickly.
QUICK = Timing(timeout_s=2.0, grace_s=1.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
               lobby_s=20.0)
#: Patient protocol timeouts, for tests that require nobody be blamed: on a loaded
#: two-core CI machine a lossy hub can hold a step up for more than two seconds, and a
#: seat whose presence the lossy hub delays or reorders must have time to be seen again.
PATIENT = Timing(timeout_s=30.0, grace_s=30.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                 lobby_s=30.0)
_REGISTRY: BotRegistry | None = None


class Keeper:
    """A player that plays the first legal action and keeps what it is told."""

    def __init__(self) -> None:
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)

    async def decide(self, view: PlayerView) -> Action:
        return view.legal[0]


def registry() -> BotRegistry:
    """The bot registry (loaded once per process)."""
    global _REGISTRY  # noqa: PLW0603 - a cache
    if _REGISTRY is None:
        _REGISTRY = BotRegistry.load()
    return _REGISTRY


def bots(names: Sequence[str]) -> list[SeatPlan]:
    """One bot seat per name."""
    seats = []
    for seat, name in enumerate(names):
        bot_type = registry().get(name)
        player = BotPlayer(name, bot_type.make(seat, seat), None, seat)
        seats.append(SeatPlan(f"{name}{seat}", player, f"bot:{name}"))
    return seats


def table(hub: MemoryHub, seats: Sequence[SeatPlan], options: Options, *, seed: int = 1,
          timing: Timing = PATIENT) -> list[Session]:
    """The host watcher and one session per seat, all on ``hub``."""
    return _sessions("oak", options, len(seats), seats, connect=hub.transport, seed=seed,
                     timing=timing, spectator=None)


async def run_all(sessions: Sequence[Session]) -> list[MatchOutcome]:
    """Run every session to its end."""
    return list(await asyncio.gather(*(s.run() for s in sessions)))


def lossy(seed: int = 7) -> Faults:
    """Drops, duplicates, reorders and delays on the peer topics."""
    return Faults(drop=0.03, duplicate=0.05, reorder=0.05, delay=0.003, seed=seed,
                  topics="lodam/v3/t/+/p/+")
