"""The asyncio runner of a table machine, and :class:`Session`: a machine with its runner.

:class:`SeatRunner` is the only part of a session that awaits. It owns the link, the
inbox the link fills, the event loop's clock, the player's pending decision and the
``opened`` event, and runs the loop: everything the link or the player delivers goes
into the machine's ``receive`` with the time, then ``handle_timer``; between turns it
does what the machine asked (:mod:`.effects`: tells its player, writes the spectator log
and the journal), then publishes what the machine said (retained lobby writes, then
bodies), and sleeps until input comes or the machine's next
deadline (:meth:`~lodam_p2p.session.seat.TableMachine.timer`) is due. Given a
``transcripts`` directory, it writes there each hand's transcript the machine hands it
(:class:`~.effects.TranscriptReady`): one file per hand and seat,
:func:`transcript_name`, as ``lodam verify`` reads it.

:class:`Session` is what the table drivers (:mod:`.table`) build: the machine, bound to
a runner over ``link`` (``await session.run()`` plays the match).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import (
    Admit,
    AskPlayer,
    Decided,
    SessionError,
    TranscriptReady,
    carry_out,
)
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.link import Link
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.rejoin import TableGone
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport import TransportError

__all__ = ["MAX_IDLE", "SeatRunner", "Session", "transcript_name"]

log = logging.getLogger("lodam_p2p.session")

#: The longest the loop waits for input without looking at the clocks: a safety net
#: only, every deadline is in the machine's ``timer()``.
MAX_IDLE = 1.0


class SeatRunner:
    """Runs ``machine`` over ``link`` (see the module docstring)."""

    def __init__(self, machine: TableMachine, link: Link) -> None:
        self.machine, self.link = machine, link
        self.inbox: asyncio.Queue[object] = asyncio.Queue()
        #: set once the link is open (subscribed): a restarted host's seats wait for it
        self.opened = asyncio.Event()
        #: the player's pending decision, if any
        self.deciding: asyncio.Task[None] | None = None
        #: where each hand's transcript is written (None: nowhere)
        self.transcripts: Path | None = None

    @staticmethod
    def clock() -> float:
        """The event loop's clock."""
        return asyncio.get_running_loop().time()

    async def run(self) -> MatchOutcome:
        """Play from the lobby to the result."""
        machine = self.machine
        await self.link.open(self.inbox)
        self._tell_moves()
        self.opened.set()
        try:
            machine.start(self.clock())
            while not machine.done:
                await self.flush()
                # asyncio.timeout, not wait_for: 3.11's wait_for returns an item that
                # arrived together with a cancel, and the cancel is lost
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self._idle()):
                        item = await self.inbox.get()
                    machine.receive(item, self.clock())
                self.take_waiting()
                machine.handle_timer(self.clock())
            await self.flush()
            machine.withdraw()
            await self.flush()
        except TransportError as err:
            raise SessionError(f"lost the broker: {err}") from None
        except TableGone as err:
            with contextlib.suppress(TransportError):
                await self.flush()
            raise SessionError(str(err)) from None
        finally:
            self.stop()
            await self.link.close()
        assert machine.outcome is not None
        return dataclasses.replace(machine.outcome,
                                   broker_faults=tuple(self.link.broker_faults))

    def _tell_moves(self) -> None:
        """Say on the table's log (a bot's output, a person's screen) and to the seat's
        player which broker of its list the link is on, and when it moves to another
        (:mod:`lodam_p2p.transport.mqtt`)."""
        transport, spectator = self.link.transport, self.machine.spectator
        if not hasattr(transport, "on_move"):
            return
        if len(getattr(transport, "urls", ())) > 1:
            where = transport.url.redacted()  # type: ignore[attr-defined]
            if spectator is not None:
                spectator.line(f"on the broker {where}")
            self.machine.tell(Notice(NoticeLevel.INFO, f"on the broker {where}"))

        def moved(left: str, reached: str) -> None:
            if spectator is not None:
                spectator.line(f"moved from the broker {left} to {reached}")
            self.machine.tell(Notice(NoticeLevel.WARNING,
                                     f"moved from the broker {left} to {reached}"))

        setattr(transport, "on_move", moved)  # noqa: B010 - only MQTT has it

    def take_waiting(self) -> None:
        """Hand the machine everything already in the inbox."""
        while not self.inbox.empty():
            self.machine.receive(self.inbox.get_nowait(), self.clock())

    def _idle(self) -> float:
        """How long the loop may wait for input: until the machine's next deadline, and
        never more than :data:`MAX_IDLE`."""
        due = self.machine.timer()
        if due is None:
            return MAX_IDLE
        return min(MAX_IDLE, max(0.0, due - self.clock()))

    async def flush(self) -> None:
        """Do what the machine asked, then publish what it said."""
        self.act()
        machine = self.machine
        while machine.retained:
            topic, payload = machine.retained.pop(0)
            await self.link.publish_retained(topic, payload)
        while machine.outgoing:
            await self.link.send(machine.outgoing.pop(0))

    def act(self) -> None:
        """Carry out the machine's events in order: tell the player, write the spectator
        log and the journal (:func:`~.effects.carry_out`), admit the seated peers, ask the
        player, keep a hand's transcript."""
        machine = self.machine
        events, machine.events = machine.events, []
        player = machine.plan.player if machine.plan is not None else None
        for event in events:
            if carry_out(event, player=player, spectator=machine.spectator,
                         journal=machine.journal):
                continue
            if isinstance(event, Admit):
                self.link.restrict(event.peers)
            elif isinstance(event, AskPlayer):
                self.deciding = asyncio.create_task(self._decide(event))
            elif isinstance(event, TranscriptReady) and self.transcripts is not None:
                self._keep(event, self.transcripts)

    @staticmethod
    def _keep(ready: TranscriptReady, folder: Path) -> None:
        """Write a hand's transcript into ``folder``; a disk error is logged, the table
        plays on."""
        path = folder / transcript_name(ready.table, ready.hand, ready.seat)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(ready.transcript.to_json() + "\n", encoding="utf-8")
        except OSError as err:
            log.warning("table %s: could not write the transcript %s: %s", ready.table,
                        path, err.strerror or err)

    async def _decide(self, ask: AskPlayer) -> None:
        plan = self.machine.plan
        assert plan is not None
        try:
            action: Any = await plan.player.decide(ask.view)
        except Exception as err:  # a player's bug must not stop the table
            log.warning("table %s: the player failed to decide: %s", self.machine.table, err)
            action = None
        self.inbox.put_nowait(Decided(ask.hand, ask.step, action))

    def stop(self) -> None:
        """Stop the player's pending decision, if any."""
        if self.deciding is not None:
            self.deciding.cancel()


def transcript_name(table: str, hand: int, seat: int | None) -> str:
    """The file name of ``table``'s hand ``hand`` as ``seat`` saw it (a watcher, the
    host that holds no seat, is ``watcher``): ``TABLE-hand0003-seat1.json``."""
    who = "watcher" if seat is None else f"seat{seat}"
    return f"{table}-hand{hand:04d}-{who}.json"


class Session(TableMachine):
    """One peer at a table: the machine and its runner over ``link``; ``await run()``
    plays the match and returns its outcome."""

    def __init__(self, link: Link, *, plan: SeatPlan | None, entropy: Entropy,
                 timing: Timing | None = None, host: str | None = None,
                 desk: HostDesk | None = None, spectator: SpectatorLog | None = None,
                 journal: SeatJournal | None = None, follow: str | None = None,
                 together: Sequence[str] = ()) -> None:
        super().__init__(link, plan=plan, entropy=entropy, timing=timing, host=host,
                         desk=desk, spectator=spectator, journal=journal, follow=follow,
                         together=together)
        self.runner = SeatRunner(self, link)

    @property
    def link(self) -> Link:
        """The peer's connection."""
        return self.runner.link

    @property
    def opened(self) -> asyncio.Event:
        """Set once the link is open (see :attr:`SeatRunner.opened`)."""
        return self.runner.opened

    def run(self) -> Coroutine[Any, Any, MatchOutcome]:
        """Play from the lobby to the result (:meth:`SeatRunner.run`)."""
        return self.runner.run()
