"""``lodam play --lobby`` and a table joined from it: the person's choice, and its game.

:func:`from_lobby` opens the lobby screen (the tables on the LAN and the broker, or a
new one) and fills the command's arguments with what the person chose;
:func:`game_joined` says which game a joined table plays, so that the right screen opens.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.transport.brokers import parse_brokers
from lodam_p2p.transport.url import BadBrokerUrl

if TYPE_CHECKING:
    from lodam_p2p.ui.lobby import LobbyRow


def game_joined(args: argparse.Namespace) -> str:
    """The game of the table joined (``lodam join TABLE``, or a lobby row): the one its
    announcement says, read from the broker when the row does not carry it."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("a seat in the terminal client needs a terminal (or --bot NAME)")
    row: Any = args.join_row
    known = getattr(row, "game", None)
    if known:
        return str(known)
    # netrun brings the session and the MQTT client: loaded for a joined table only
    from lodam_p2p.cli.netrun import joined_game  # noqa: PLC0415

    return joined_game(args, row.table, row.broker)


def from_lobby(args: argparse.Namespace) -> None:
    """Let the person choose in the lobby; fill ``args`` for the table they created."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("the lobby needs a terminal")
    # the lobby's search (zeroconf, the MQTT client) and its screen (prompt_toolkit)
    # load when the lobby opens, not when `lodam` starts
    from lodam_p2p.cli.cmd_tables import gather_tables  # noqa: PLC0415
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.glyphs import Glyphs  # noqa: PLC0415
    from lodam_p2p.ui.lobby_app import LobbyApp  # noqa: PLC0415

    try:
        broker = parse_brokers(args.broker)[0] if args.broker else None  # a cluster: its first
    except BadBrokerUrl as err:
        raise CliError(str(err)) from None

    async def find() -> list[LobbyRow]:
        rows = await gather_tables(broker, 2.0)
        return [_lobby_row(row) for row in rows]

    app = LobbyApp(find, glyphs=Glyphs(args.ascii), no_color=no_color_wanted(),
                   game=getattr(args, "game", None) or "lodam")
    choice = asyncio.run(app.run())
    if choice is None:
        raise SystemExit(0)
    if choice.join is not None:
        args.join_row, args.table, args.bots = choice.join, choice.join.table, ""
        return
    args.host, args.table, args.seats, args.game = True, choice.table, choice.seats, choice.game
    args.bots, args.chosen_options = filling(choice.bots, choice.seats - 1), choice.options
    args.given = (getattr(args, "given", None) or set()) | {"seats", "bots"}


def filling(lineup: str, free: int) -> str:
    """The lobby's "Bots for empty seats" as ``--bots`` for the host: ``heuristic`` at a
    table of five is four heuristic bots, a list's last name fills the seats it leaves, an
    empty field seats none (the seats wait for players); a list longer than the free seats
    is left for the host's check to refuse in one line."""
    if not lineup.strip():
        return ""
    # the arena's config brings multiprocessing and statistics: not at start-up
    from lodam_p2p.arena.config import ArenaError, parse_lineup  # noqa: PLC0415

    try:
        names = list(parse_lineup(lineup))
    except ArenaError as err:
        raise CliError(f"bad bots: {err}") from None
    return ",".join(names + [names[-1]] * (free - len(names)))


def _lobby_row(row: Any) -> LobbyRow:
    # the lobby's screen loads with the lobby, not when `lodam` starts
    from lodam_p2p.ui.lobby import LobbyRow  # noqa: PLC0415

    a = row.announcement
    found = "+".join(sorted(row.found))
    if a is None:
        return LobbyRow(row.label, row.broker, found=found)
    # the label (oak#7f3a): the host's fingerprint shown, and pinned when joined
    return LobbyRow(row.label, row.broker, len(a.seated), a.seats, a.state, a.host, found,
                    a.joinable, a.game, tuple(a.seated))
