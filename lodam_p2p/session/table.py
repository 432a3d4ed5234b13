"""Table drivers over the network: play, host and join a table.

- :func:`play_table` — every seat in this process (bots, or a person beside bots): one
  session per seat, each with its own identity, keys and broker connection, plus the
  table's host (a watcher that keeps the lobby and writes the spectator log).
- :func:`host_table` — host a table here with some local seats; the others join.
- :func:`join_table` — one seat joins a table hosted elsewhere.

Without a broker URL, :func:`play_table` and :func:`host_table` start the embedded amqtt
broker: on an ephemeral loopback port for a solo table, on ``listen`` (default
``127.0.0.1:1883``) when hosting; a LAN address only when ``listen`` names one. A table
whose broker another machine may reach (a LAN address, a venue's broker, a cluster's
nodes) is advertised by DNS-SD. ``connector`` (tests) replaces MQTT altogether, e.g.
with an in-memory hub's transports. The sessions a hosted table's process plays, and
what a journal gives back of them, are made in :mod:`.hosting`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games import DEFAULT_GAME, Game, GameError, get_game
from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.hosting import seat_link, table_sessions
from lodam_p2p.session.journal import Journal, SeatJournal
from lodam_p2p.session.keys import entropy_for, new_identity
from lodam_p2p.session.link import Connector
from lodam_p2p.session.lobby import check_playable
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.runner import Session
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport import ConnectError, PresenceSpec, Transport, open_transport, topics
from lodam_p2p.transport.broker import (
    LOOPBACK,
    MQTT_PORT,
    BrokerStartError,
    EmbeddedBroker,
    ListenAddress,
)
from lodam_p2p.transport.lobby import TableAnnouncement, read_lobby, split_label
from lodam_p2p.transport.topics import PROTOCOL_VERSION

log = logging.getLogger("lodam_p2p.session")

#: :func:`~lodam_p2p.session.hosting.table_sessions`, by the name the tests and the
#: benchmarks import it under.
_sessions = table_sessions


def table_game(name: str, seats: int, options: Any) -> Game:
    """The game called ``name``, checked for ``seats`` and ``options`` at a networked
    table; :class:`SessionError` naming what is wrong."""
    try:
        game = get_game(name)
        game.seats.check(seats, game.title)
        check_playable(game, options)
    except GameError as err:
        raise SessionError(str(err)) from None
    return game


def mqtt_connector(url: str) -> Connector:
    """Transports to the MQTT broker at ``url``."""

    def connect(presence: PresenceSpec) -> Transport:
        return open_transport(url, presence)

    return connect


@contextlib.asynccontextmanager
async def broker_for(broker_url: str | None, listen: ListenAddress | None,
                     connector: Connector | None) -> AsyncIterator[tuple[Connector, str]]:
    """The connector to use and the broker's URL, starting the embedded broker if needed."""
    if connector is not None:
        yield connector, broker_url or "memory"
        return
    if broker_url is not None:
        yield mqtt_connector(broker_url), broker_url
        return
    try:
        async with EmbeddedBroker(listen or ListenAddress(LOOPBACK, 0)) as broker:
            yield mqtt_connector(broker.url), broker.url
    except BrokerStartError as err:
        raise SessionError(str(err)) from None


async def _run_all(sessions: Sequence[Session]) -> list[MatchOutcome]:
    """Run sessions together and return the first one's outcome first.

    The first failure cancels the rest and is raised — but a seat other than the first
    session's that fails once the match has begun (its own broker connection lost) only
    leaves the table: the other seats of this process, bots seated beside a person, play
    on, and the table deals with the missing seat as with any other.

    The others start once the first (the host) is subscribed: a restarted host follows
    its first seat back in, and must hear every answer to that seat's REJOIN.
    """
    first, *others = sessions
    try:
        async with asyncio.TaskGroup() as group:
            task = group.create_task(first.run())
            for other in others:
                group.create_task(_seat_run(other, first.opened))
    except* (SessionError, ConnectError) as failures:
        raise SessionError(str(failures.exceptions[0])) from None
    return [task.result()]


async def _seat_run(session: Session, after: asyncio.Event) -> MatchOutcome | None:
    """Run one of the process's seats once ``after`` is set (see :func:`_run_all`);
    None if it left the table."""
    await after.wait()
    try:
        return await session.run()
    except (SessionError, ConnectError) as err:
        if session.roster is None:
            raise  # before the start: the table cannot fill without it
        log.warning("table %s: a seat played here left the table: %s", session.table, err)
        if session.plan is not None:  # its runner has stopped: told from here
            session.plan.player.notify(Notice(
                NoticeLevel.ERROR, f"This seat left the table ({err}); the other seats "
                "played here go on."))
        return None


async def play_table(*, table: str, options: Any, seats: Sequence[SeatPlan],
                     broker_url: str | None = None, seed: int | None = None,
                     timeout_s: float = 30.0, timing: Timing | None = None,
                     connector: Connector | None = None,
                     spectator: SpectatorLog | None = None,
                     game: str = DEFAULT_GAME,
                     journal: Journal | None = None) -> MatchOutcome:
    """Play a whole match of ``game`` with every seat in this process (see the module
    docstring). ``seed`` makes every secret reproducible (tests); ``None`` draws from
    the OS. With a ``journal`` every session keeps its state there, as a host's do.
    """
    topics.check_name(table, "table")
    played = table_game(game, len(seats), options)
    timing = timing or Timing(timeout_s=timeout_s)
    async with broker_for(broker_url, None, connector) as (connect, _url):
        sessions = table_sessions(table, options, len(seats), seats, connect=connect,
                                  seed=seed, timing=timing, spectator=spectator, game=played,
                                  journal=journal)
        outcomes = await _run_all(sessions)
    return outcomes[0]


async def host_table(*, table: str, seats: int, options: Any, local: Sequence[SeatPlan],
                     broker_url: str | None, listen: str | None = None,
                     seed: int | None = None, timing: Timing | None = None,
                     connector: Connector | None = None,
                     spectator: SpectatorLog | None = None,
                     on_broker: object = None, journal: Journal | None = None,
                     game: str = DEFAULT_GAME,
                     transcripts: Path | None = None) -> MatchOutcome:
    """Host ``table`` of ``game`` with ``seats`` seats, ``local`` of them played here.

    ``on_broker`` (a callable taking the broker URL) is told where others should join:
    the first of the broker's LAN URLs (:func:`lodam_p2p.transport.discovery.announced_brokers`,
    also in the table's announcement), else ``broker_url`` (loopback). ``transcripts``:
    a directory where every session here writes each hand's transcript.
    """
    topics.check_name(table, "table")
    played = table_game(game, seats, options)
    if len(local) > seats:
        raise SessionError(f"{len(local)} local seats at a table of {seats}")
    address = ListenAddress.parse(listen) if listen else ListenAddress(LOOPBACK, MQTT_PORT)
    async with broker_for(broker_url, address, connector) as (connect, url):
        from lodam_p2p.transport.discovery import announced_brokers  # noqa: PLC0415 - zeroconf is slow

        brokers = announced_brokers(url, listen) if connector is None else ()
        if callable(on_broker):
            on_broker(brokers[0] if brokers else url)
        sessions = table_sessions(table, options, seats, local, connect=connect, seed=seed,
                                  timing=timing or Timing(), spectator=spectator,
                                  journal=journal, game=played, brokers=brokers,
                                  transcripts=transcripts)
        async with _advertised(table, brokers, sessions[0].runner.machine.identity):
            outcomes = await _run_all(sessions)
    return outcomes[0]


@contextlib.asynccontextmanager
async def _advertised(table: str, brokers: tuple[str, ...],
                      identity: Ed25519PrivateKey) -> AsyncIterator[None]:
    """Advertise the table by DNS-SD at every one of ``brokers`` another machine may
    reach (its own broker opened to the LAN, a venue's broker, a cluster's nodes),
    signed by the host's ``identity``; best effort, and nothing for loopback."""
    from lodam_p2p.transport.discovery import table_advertiser  # noqa: PLC0415

    advertiser = table_advertiser(table, brokers, identity)
    if advertiser is None:
        yield
        return
    try:
        await advertiser.start()
    except Exception as err:  # multicast is often unavailable; --broker still works
        log.warning("could not advertise table %s on the LAN: %s", table, err)
        yield
        return
    try:
        yield
    finally:
        await advertiser.stop()


async def find_table(connect: Connector, table: str | None) -> str:
    """The table to join: ``table`` if the broker announces it, else the first joinable."""
    return (await find_announcement(connect, table)).table


#: Seconds between two looks at the lobby for a table not announced (or not open) yet.
LOOK_AGAIN_S = 1.0
#: How long a bot's seat (or a person's command, before its screen opens) looks for a
#: table not announced (or not open) yet; a person's screen looks until they leave.
TABLE_PATIENCE_S = 60.0


class TableWaitOver(SessionError):
    """The table to join stayed unannounced, or without a seat free, for the whole
    patience of :func:`find_announcement`; the message is the last reason."""


async def find_announcement(connect: Connector, table: str | None, *, open_only: bool = False,
                            patience_s: float | None = 0.0,
                            waiting: Callable[[str], None] | None = None,
                            pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
                            clock: Callable[[], float] | None = None
                            ) -> TableAnnouncement:
    """The announcement of the table to join (see :func:`find_table`): its game too.

    With ``open_only`` a named table must have a seat free (not full, not playing).
    While it is not there (or not open) the lobby is read again every
    :data:`LOOK_AGAIN_S` seconds for ``patience_s`` seconds (None: until cancelled),
    ``waiting`` told why at first and at each change; then the reason is the
    :class:`TableWaitOver`. So "no table" is said only of a table that stayed
    unannounced that long. ``pause`` and ``clock`` (default: the event loop's) are
    those of the wait."""
    clock = clock or asyncio.get_running_loop().time
    give_up = None if patience_s is None else clock() + patience_s
    said = ""
    while True:
        found, why = await _look(connect, table, open_only)
        if found is not None:
            return found
        if give_up is not None and clock() >= give_up:
            raise TableWaitOver(why.removesuffix(" yet"))
        if waiting is not None and why != said:
            waiting(why)
        said = why
        await pause(LOOK_AGAIN_S)


async def _look(connect: Connector, table: str | None, open_only: bool
                ) -> tuple[TableAnnouncement | None, str]:
    """One read of the lobby: the table to join, or why there is none."""
    transport = connect(PresenceSpec("lobby", "lookup"))
    await transport.connect()
    try:
        tables = await read_lobby(transport, limit=3.0)
    finally:
        await transport.close()
    if table is not None:
        name, pin = split_label(table)
        named = [a for a in tables if a.table == name and a.pinned_by(pin)]
        if not named:
            return None, f"no table {table!r} on this broker yet"
        if pin is not None and len({a.key for a in named}) > 1:
            prints = ", ".join(a.fingerprint[:8] for a in named)
            return None, (f"{len(named)} tables are announced as {table!r}: give more "
                          f"digits of the fingerprint ({prints})")
        joinable = [a for a in named if a.joinable]  # the first heard of those open
        if open_only and not joinable:
            return None, f"table {table!r} is {_not_open(named[0])}"
        return (joinable or named)[0], ""
    joinable = [a for a in tables if a.joinable]
    if not joinable:
        return None, "no open table on this broker yet"
    return joinable[0], ""


def _not_open(found: TableAnnouncement) -> str:
    """Why the announced table ``found`` has no seat for us."""
    if found.version != PROTOCOL_VERSION:
        return "of another protocol version"
    return "playing a match" if found.state == "playing" else "full"


async def join_table(*, table: str | None, seat: SeatPlan, broker_url: str,
                     seed: int | None = None, timing: Timing | None = None,
                     connector: Connector | None = None,
                     spectator: SpectatorLog | None = None,
                     make: Callable[..., Session] = Session,
                     journal: Journal | None = None,
                     accept: Callable[[TableAnnouncement], None] | None = None,
                     transcripts: Path | None = None, patience_s: float | None = None,
                     waiting: Callable[[str], None] | None = None) -> MatchOutcome:
    """Join ``table`` (None: the first open one on the broker) with one local seat.

    ``make`` builds the session (``Session``, or a subclass such as the adversary's).
    With a ``journal`` holding an unfinished match (at ``table``, if named), the seat
    comes back to it (:mod:`.rejoin`); otherwise the journal keeps the new match.
    ``accept`` may refuse the table found (its game, say) with a :class:`SessionError`.
    A new seat waits for its table to be announced with a seat free (a host about to
    play again, a table full for now), telling its player why: a person until they
    leave, a bot :data:`TABLE_PATIENCE_S` seconds. ``transcripts``: a directory where
    the seat writes each hand's transcript."""
    async with broker_for(broker_url, None, connector) as (connect, _url):
        kept = SeatJournal(journal, "seat", split_label(table)[0] if table else None)
        pin: str | None = None
        pin_given = False
        if kept.rejoining:
            name = kept.entry["table"]
        else:
            def told(why: str) -> None:
                seat.player.notify(Progress(Phase.LOBBY, detail=f"{why}: looking again"))
                if waiting is not None:
                    waiting(why)

            if patience_s is None and seat.kind != "human":
                patience_s = TABLE_PATIENCE_S
            found = await find_announcement(connect, table, open_only=True, waiting=told,
                                            patience_s=patience_s)
            if accept is not None:
                accept(found)
            name = found.table
            pin, pin_given = found.fingerprint, split_label(table or "")[1] is not None
        kept = kept if kept.rejoining else SeatJournal(journal, "seat", name)
        if spectator is not None:
            spectator.table = name
        epoch = kept.entry.get("epoch", -1) + 1 if journal is not None else 0
        entropy = entropy_for(seed, 1 + 1000 * epoch)
        identity = kept.identity(entropy) if journal is not None else new_identity(entropy)
        kept.next_epoch()
        timing = timing or Timing()
        link = seat_link(connect, name, identity, timing, watch_lobby=True, epoch=epoch)
        session = make(link, plan=seat, entropy=entropy, timing=timing, spectator=spectator,
                       journal=kept)
        session.runner.transcripts = transcripts
        if pin is not None:  # the announcer found, and no other (see .seating)
            seating = session.runner.machine.seating
            seating.pin, seating.pin_given = pin, pin_given
        return (await _run_all([session]))[0]
