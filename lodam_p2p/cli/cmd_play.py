"""``lodam play``: sit down at a table with bots, in a full-screen terminal client.

With no arguments: a five-seat table — you and four ``heuristic`` bots — on an embedded
broker on loopback, dealt by the fair-deal protocol, straight into the table view.
``--offline`` plays the same match in this process with the rules engine alone (no
broker, no protocol). ``--bots-only`` seats bots only and writes the table's story as
plain text (``--json``: just the one-line summary at the end).

``--game lorum`` sits you at a Lorum table (docs/rules-lorum.md) with two or three bots
(``--seats 3`` or ``4``, default 4; ``heuristic`` bots when that bot plays Lorum, else
``random``; ``--option`` takes Lorum's table options, e.g. ``contracts=quartet,lorum``),
dealt over the embedded broker by the fair-deal protocol, or with ``--offline`` played by
the same offline table as Losing Lodam. ``--bots-only`` and ``--lobby`` work for it too;
a table joined from the lobby (or by ``lodam join``) is played with its own game's
screen, whatever ``--game`` says.

Bots are paced (``--bot-delay``, default 0.6 s a card) so that a person can follow them.
The log goes to a file (``--log-file``, default ``~/.local/state/lodam/lodam.log``; it
rotates at 5 MB), never over the screen. If the table stops with an error (a broker that
refuses the connection, say), the screen closes and one line says what failed and what
to try; the exit status is then 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bot_flags import OneBot
from lodam_p2p.cli.broker_list import BrokerList
from lodam_p2p.cli.cmd_bots import add_bot_arguments
from lodam_p2p.cli.person import load_registry
from lodam_p2p.cli.play_drivers import choose_driver, hosting_notice
from lodam_p2p.cli.play_lobby import from_lobby, game_joined
from lodam_p2p.cli.play_pace import DEFAULT_DELAY, seconds
from lodam_p2p.cli.play_seats import (
    BOT_NAMES,
    GameScreen,
    bot_lineup,
    bot_seats,
    bots_only,
    hosted,
    lineup_for,
    setup_logging,
    sit_down,
    stopped,
)
from lodam_p2p.transport.brokers import parse_brokers
from lodam_p2p.transport.url import BadBrokerUrl

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.games.lodam import Action, Options, PlayerView

#: The parts of ``lodam play`` that live in its helper modules, named here too for
#: ``lodam host`` and ``join``; the helpers never import this module (the route's
#: layers, from this command down to :mod:`.play_pace`, are an import-linter contract).
__all__ = ["BOT_NAMES", "DEFAULT_BOT", "DEFAULT_SEATS", "Given", "bot_lineup", "bot_seats",
           "bots_only", "choose_driver", "hosted", "hosting_notice", "lineup_for",
           "play_defaults", "register", "run", "seconds", "setup_logging", "stopped",
           "valid_broker"]

DEFAULT_SEATS = 5
DEFAULT_BOT = "heuristic"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam play``."""
    parser = sub.add_parser("play", help="play at a table with bots (full-screen terminal)",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--game", choices=("lodam", "lorum"), default="lodam",
        help="the game: lodam (Losing Lodam, default) or lorum")
    add("--seats", type=int, default=DEFAULT_SEATS, metavar="N", action=Given,
        help=f"seats at the table, 3-10 (default {DEFAULT_SEATS}; Lorum: 3 or 4, default 4)")
    add("--bots", default=DEFAULT_BOT, metavar="NAME,...", action=Given,
        help="bots for the other seats, comma separated, NAME*K for K seats; the last "
             f"one fills the rest (default {DEFAULT_BOT})")
    add("--bot", dest="bots", action=OneBot, metavar="NAME",
        help="one bot for the next free seat (repeatable; the same as adding NAME to --bots)")
    add("--table", default="kitchen", metavar="NAME", help="table name (default kitchen)")
    add("--broker", metavar="URL", action=BrokerList,
        help="play through this broker instead of an embedded one (several, a cluster's "
             "nodes: comma separated or repeated; a seat moves to the next if one is lost)")
    add("--option", action="append", default=[], metavar="K=V",
        help="table option (lodam rules show-options lists them), e.g. lives=1; Lorum: "
             "e.g. contracts=quartet,lorum (repeatable)")
    add("--bot-delay", type=seconds, default=None, metavar="SECONDS",
        help=f"pause before a bot plays a card (default {DEFAULT_DELAY}; 0 with --bots-only)")
    add("--name", default=None,
        help="your name at the table, remembered for next time (default: the last one "
             "given, else your login name)")
    add("--ascii", action="store_true", help="no suit symbols or box lines: plain ASCII")
    add("--offline", action="store_true",
        help="play in this process with the rules engine only (no broker, no protocol)")
    add("--seed", type=int, default=None,
        help="seed the bots' choices; with --offline also the decks and the first dealer "
        "(on the network every secret is drawn fresh)")
    add("--bots-only", action="store_true",
        help="a table of bots only, told as a plain-text log (no screen)")
    add("--json", action="store_true", help="print the one-line JSON summary of the match")
    add("--lobby", action="store_true",
        help="open the lobby first: the tables on the LAN and the broker, or a new one")
    add("--log-file", type=Path, default=None, metavar="PATH",
        help="where to write the log (default ~/.local/state/lodam/lodam.log)")
    add("--state-dir", type=Path, default=None, metavar="DIR",
        help="the journal of a networked table's seats, to come back after a crash with "
             "the same command (default: a slot under $XDG_STATE_HOME/lodam); --offline "
             "keeps none")
    add_bot_arguments(parser)
    parser.set_defaults(run=run)


class Given(argparse.Action):
    """Stores the value and notes that it was given (``args.given``), so that a game
    with other defaults (Lorum) can tell a default from a choice."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        given = getattr(namespace, "given", None) or set()
        namespace.given = given | {self.dest}


def run(args: argparse.Namespace) -> int:
    """Play; exit status 0 when the person left or the match ended."""
    valid_broker(args.broker)
    if args.lobby:
        from_lobby(args)
    if getattr(args, "join_row", None) is not None:
        args.game = game_joined(args)
    if getattr(args, "game", "lodam") == "lorum":
        # the Lorum route brings netrun (the session, the MQTT client): only for Lorum
        from lodam_p2p.cli.play_lorum import play_lorum  # noqa: PLC0415

        return play_lorum(args)
    options = getattr(args, "chosen_options", None) or _options(args.option)
    if not 3 <= args.seats <= 10:
        raise CliError(f"Losing Lodam is for 3 to 10 seats (--seats), got {args.seats}")
    registry = load_registry(args)
    lineup = lineup_for(args, registry)
    return sit_down(args, options, lineup, registry, driver=choose_driver(args),
                    screen=_screen(args, registry, lineup))


def valid_broker(url: str | None) -> None:
    """A one-line error, before any screen opens, for a ``--broker`` that is no broker
    URL (``ftp://x``)."""
    if url is None:
        return
    try:
        parse_brokers(url)
    except BadBrokerUrl as err:
        raise CliError(f"{err} (for example mqtt://192.168.1.20:1883)") from None


def _options(items: Sequence[str]) -> Options:
    # netrun brings the session and the MQTT client, and the rules the whole engine:
    # `lodam` starts without them and loads them when a Lodam table is set
    from lodam_p2p.cli.netrun import session_options  # noqa: PLC0415
    from lodam_p2p.games.lodam import Options  # noqa: PLC0415

    try:
        return Options.parse_assignments(session_options(items)[0])
    except ValueError as err:  # the rules' errors are ValueErrors
        raise CliError(f"bad --option: {err}") from None


def play_defaults() -> argparse.Namespace:
    """The arguments of a bare ``lodam play``, for commands that seat a person too
    (``lodam join TABLE``, ``lodam host``)."""
    root = argparse.ArgumentParser(prog="lodam")
    register(root.add_subparsers())
    return root.parse_args(["play"])


def _screen(args: argparse.Namespace, registry: BotRegistry, lineup: Sequence[str]
            ) -> GameScreen:
    """The Lodam screen, for :func:`~lodam_p2p.cli.play_seats.sit_down`."""
    # the terminal client (prompt_toolkit) loads only when a person sits down
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.lodam.client import ClientOptions, run_client  # noqa: PLC0415

    client = ClientOptions(table="offline" if args.offline else args.table, ascii=args.ascii,
                           no_color=no_color_wanted(), hint=_hint(registry),
                           hosted=hosted(args, lineup))
    return lambda start_match, limit: run_client(start_match, client)


def _hint(registry: BotRegistry) -> Callable[[PlayerView], Action] | None:
    if DEFAULT_BOT not in registry:
        return None
    bot_type = registry.get(DEFAULT_BOT)
    return lambda view: bot_type.make(view.seat, 0).decide(view)
