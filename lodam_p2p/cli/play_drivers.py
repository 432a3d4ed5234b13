"""How ``lodam play`` runs a match: offline, hosted, joined, or every seat in this process.

:func:`choose_driver` picks the driver from the arguments: the rules engine alone
(``--offline``), a table hosted here (on the host's own broker process unless
``--broker`` names one), a table joined from the lobby or by ``lodam join``, or a table
whose seats all play in this process over a broker.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli.person import Driver, timeout_of
from lodam_p2p.player import Notice, NoticeLevel

if TYPE_CHECKING:
    from lodam_p2p.games.lodam import Options
    from lodam_p2p.tableplan import MatchOutcome, SeatPlan


def choose_driver(args: argparse.Namespace) -> Driver:
    """The offline driver with ``--offline``, else the network session."""
    if args.offline:
        # the offline table brings the games' engines: loaded when it is chosen
        from lodam_p2p.local import play_local  # noqa: PLC0415

        async def local(options: Options, seats: Sequence[SeatPlan], seed: int | None
                        ) -> MatchOutcome:
            return await play_local(options=options, seats=seats, seed=seed)

        return local
    # the session and netrun bring the table machine and the MQTT client: loaded when a
    # networked table is chosen, so that `lodam --help` stays fast
    from lodam_p2p import session  # noqa: PLC0415
    from lodam_p2p.cli.netrun import warn_seeded  # noqa: PLC0415

    row: Any = getattr(args, "join_row", None)
    if row is None:  # this process seats bots at a networked table: a seed shows them
        warn_seeded(getattr(args, "seed", None))
    game = getattr(args, "game", None) or "lodam"

    def same_game(found: Any) -> None:
        # the screen was chosen for the game the table announced a moment ago
        if found.game != game:
            raise session.SessionError(f"table {found.table} now plays {found.game}, "
                                       f"not {game}")

    # On the network ``seed`` reaches the bots only (bot_seats): every secret of the
    # session — identity, hand keys, shuffles, salts, the lot — is drawn from the OS.
    async def join(options: Options, seats: Sequence[SeatPlan], seed: int | None
                   ) -> MatchOutcome:
        journal = journal_of(args, row.table, "seat")
        try:
            return await session.join_table(
                table=row.table, seat=seats[0], broker_url=row.broker,
                timing=timing_of(args), journal=journal, accept=same_game,
                transcripts=getattr(args, "transcripts", None))
        finally:
            journal.close()  # "play again" takes it up afresh (the same --state-dir too)

    async def host(options: Options, seats: Sequence[SeatPlan], seed: int | None
                   ) -> MatchOutcome:
        def tell(url: str) -> None:
            # the person at the first seat learns where the others should join
            if seats:
                seats[0].player.notify(hosting_notice(args.table, url))

        journal, timing = journal_of(args, args.table, "host"), timing_of(args)
        listen = getattr(args, "listen", None)
        try:
            own = None if args.broker else await _own_broker(journal.directory, listen, timing)
            try:
                return await session.host_table(
                    table=args.table, seats=args.seats, options=options, local=seats,
                    broker_url=own.url if own is not None else args.broker, listen=listen,
                    on_broker=tell, timing=timing, journal=journal, game=game,
                    transcripts=getattr(args, "transcripts", None))
            finally:
                if own is not None:
                    await asyncio.to_thread(own.stop)
        finally:
            journal.close()  # "play again" takes it up afresh (the same --state-dir too)

    if row is not None:
        return join
    if getattr(args, "host", False):
        return host

    async def network(options: Options, seats: Sequence[SeatPlan], seed: int | None
                      ) -> MatchOutcome:
        journal = journal_of(args, args.table, "host")  # every seat is played here
        try:
            return await session.play_table(
                table=args.table, options=options, seats=seats, broker_url=args.broker,
                timing=timing_of(args), game=game, journal=journal)
        finally:
            journal.close()  # "play again" takes it up afresh (the same --state-dir too)

    return network


async def _own_broker(directory: Any, listen: str | None, timing: Any) -> Any:
    """The host's broker process (:mod:`lodam_p2p.transport.hostbroker`), started (or found again)
    off the event loop; a :class:`SessionError` if it cannot start."""
    # the broker and the session: loaded when a table is hosted here
    from lodam_p2p.session import SessionError  # noqa: PLC0415
    from lodam_p2p.transport.broker import BrokerStartError, ListenAddress  # noqa: PLC0415
    from lodam_p2p.transport.hostbroker import host_broker  # noqa: PLC0415

    try:
        address = ListenAddress.parse(listen) if listen else ListenAddress("127.0.0.1", 1883)
        return await asyncio.to_thread(host_broker, directory, address, timing.grace_s)
    except (BrokerStartError, ValueError) as err:
        raise SessionError(str(err)) from None


def journal_of(args: argparse.Namespace, table: str | None, role: str) -> Any:
    """The journal of a match whose first session is ``role`` (``--state-dir``, else a
    default slot); the caller closes it when the match is over."""
    # netrun brings the session and the MQTT client: loaded for a networked table only
    from lodam_p2p.cli.netrun import journal_for  # noqa: PLC0415

    return journal_for(args, table, role)


def timing_of(args: argparse.Namespace) -> Any:
    """Session timing: the ``--timeout`` limit and the ``rejoin_grace`` of ``--option``."""
    # netrun and the session: loaded for a networked table only
    from lodam_p2p.cli.netrun import session_options  # noqa: PLC0415
    from lodam_p2p.session import Timing  # noqa: PLC0415

    return Timing(timeout_s=timeout_of(args),
                  grace_s=session_options(getattr(args, "option", []) or [])[1])


def hosting_notice(table: str, url: str) -> Notice:
    """Where the others join a table hosted here."""
    return Notice(NoticeLevel.INFO,
                  f"Hosting {table} on {url}: others join with 'lodam join {table} --broker {url}'")
