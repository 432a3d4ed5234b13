"""``lodam bots``: the games installed and, per game, the bots that play it: where each
comes from, and its options."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lodam_p2p.bots import ANY_GAME, BotError, BotRegistry, BotStartError, BotType, RegisteredBot
from lodam_p2p.bots.manager import ENTRY_POINT_GROUP, PLUGIN_PATH_ENV, user_plugin_dir
from lodam_p2p.cli import CliError
from lodam_p2p.games import GameError, games

_EPILOG = f"""\
Bots are found in installed packages (entry-point group {ENTRY_POINT_GROUP}) and in
plugin folders: --plugin-dir, then ${PLUGIN_PATH_ENV}, then {user_plugin_dir()}.
See docs/bots.md for writing one."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bots``."""
    parser = sub.add_parser(
        "bots",
        help="list the installed games and bots",
        description="List every installed game and, per game, the bots that play it: name, "
                    "where it comes from, summary, options.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_plugin_dir_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def add_plugin_dir_argument(parser: argparse.ArgumentParser) -> None:
    """``--plugin-dir DIR`` (repeatable), shared with ``lodam arena``."""
    parser.add_argument(
        "--plugin-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="also load every *.py bot plugin file in DIR (repeatable)",
    )


def add_bot_arguments(parser: argparse.ArgumentParser, *, plugin_dir: bool = True) -> None:
    """The bot flags every command that seats bots shares (``play``, ``host``, ``join``,
    ``bot``; ``arena`` has its own ``--bot-option``): ``--bot-option NAME.key=value``,
    ``--plugin-dir DIR`` and ``--strict-bots``."""
    parser.add_argument("--bot-option", action="append", default=[], metavar="NAME.KEY=VALUE",
                        help="option for every seat here running bot NAME, e.g. "
                             "ismcts.time_ms=50 (repeatable; 'lodam bots' lists them)")
    if plugin_dir:
        add_plugin_dir_argument(parser)
    parser.add_argument("--strict-bots", action="store_true",
                        help="a bot's first error (exception, wrong answer) forfeits its seat "
                             "and ends the match for it, instead of the fallback playing on: "
                             "for authors testing a bot")


@dataclass(frozen=True, slots=True)
class BotSetup:
    """What the command line says about the bots seated here: where to find them, their
    options by bot name, whether their first error forfeits the seat."""

    plugin_dirs: tuple[str, ...] = ()
    options: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    strict: bool = False

    def options_of(self, name: str) -> dict[str, str]:
        """The ``--bot-option`` texts for bot ``name``."""
        return {key: value for bot, pairs in self.options if bot == name for key, value in pairs}

    def registry(self) -> BotRegistry:
        """The bots installed and in the plugin folders, or a one-line error."""
        return load(list(self.plugin_dirs))

    def check(self, registry: BotRegistry, seated: Sequence[str], game: str | None) -> None:
        """Every ``--bot-option`` names a bot seated here and an option it has (of
        ``game``'s part when known): a one-line :class:`CliError` before anything starts."""
        for name, pairs in self.options:
            if name not in seated:
                here = ", ".join(dict.fromkeys(seated)) or "none"
                raise CliError(f"--bot-option for {name!r}, which has no seat here "
                               f"(bots seated here: {here})")
            try:
                registry.get(name).parse_options(dict(pairs), game)
            except BotError as err:
                raise CliError(str(err)) from None


def bot_setup(args: argparse.Namespace) -> BotSetup:
    """The :class:`BotSetup` of a command's arguments (missing flags: the defaults)."""
    from lodam_p2p.arena.config import ArenaError, parse_bot_options  # noqa: PLC0415

    try:
        parsed = parse_bot_options(getattr(args, "bot_option", None) or [])
    except ArenaError as err:
        raise CliError(str(err)) from None
    return BotSetup(tuple(getattr(args, "plugin_dir", None) or ()),
                    tuple((name, tuple(sorted(keys.items()))) for name, keys in parsed.items()),
                    bool(getattr(args, "strict_bots", False)))


def check_table_options(items: Sequence[str]) -> None:
    """A one-line error for an ``--option`` meant for a bot (``NAME.key=value``): a
    table option's name has no dot."""
    for item in items:
        key = item.partition("=")[0].strip()
        if "." in key:
            raise CliError(f"--option {item} sets no table option: a bot's option is "
                           f"--bot-option {item}")


def load(plugin_dirs: list[str]) -> BotRegistry:
    """The registry, or a one-line :class:`CliError`."""
    try:
        return BotRegistry.load([Path(folder) for folder in plugin_dirs])
    except BotError as err:
        raise CliError(str(err)) from None


def start_error(err: BotStartError, verbose: bool) -> CliError:
    """The one line (exit 2) of a bot whose factory raised; with ``verbose`` its
    traceback is printed first."""
    if verbose and err.trace:
        print(err.trace.rstrip(), file=sys.stderr)
    return CliError(str(err))


def run(args: argparse.Namespace) -> int:
    """List the bots, per game."""
    registry = load(args.plugin_dir)
    try:
        installed = [(game.name, game.title, str(game.seats)) for game in games()]
    except GameError as err:
        raise CliError(str(err)) from None
    if args.json:
        listing = {bot.name: _bot_json(bot) for bot in registry}
        per_game = {
            name: {"title": title, "seats": seats,
                   "bots": [bot.name for bot in registry if bot.type.plays(name)]}
            for name, title, seats in installed
        }
        print(json.dumps({"games": per_game, "bots": listing}, default=str))
        return 0
    if not len(registry):
        print("no bots installed")
        return 0
    width = max(len(bot.name) for bot in registry)
    for name, title, seats in installed:
        print(f"{name}: {title} ({seats} seats)")
        playing = [bot for bot in registry if bot.type.plays(name)]
        if not playing:
            print("  no bot plays it yet")
        for bot in playing:
            _print_bot(bot, bot.type.for_game(name), width)
    known = {name for name, _title, _seats in installed}
    for bot in registry:
        missing = [game for game in bot.type.all_games if game not in known and game != ANY_GAME]
        if missing:
            print(f"{bot.name} plays games that are not installed: {', '.join(missing)}")
    return 0


def _bot_json(bot: RegisteredBot) -> dict[str, object]:
    """A bot's listing: its own part's summary and options at the top (as before there
    were parts), and under ``"by_game"`` each game's summary, source and options."""
    return {
        "source": bot.source,
        "summary": bot.type.summary,
        "games": list(bot.type.all_games),
        "options": _options_json(bot.type),
        "budget_s": bot.type.budget,
        "by_game": {
            game: {"summary": part.summary, "source": bot.source_of(part),
                   "options": _options_json(part), "budget_s": part.budget}
            for part in bot.type.parts for game in part.games
        },
    }


def _options_json(part: BotType) -> dict[str, object]:
    return {o.key: {"default": o.default, "help": o.help} for o in part.options}


def _print_bot(bot: RegisteredBot, part: BotType, width: int) -> None:
    """One bot as it plays one game: that game's part, source and options."""
    pad = " " * (width + 2)
    print(f"  {bot.name:<{width}}  {part.summary}")
    print(f"  {pad}from {bot.source_of(part)}; thinks up to {part.budget:g} s a decision")
    for option in part.options:
        print(f"  {pad}option {bot.name}.{option.key}={option.default}: {option.help}")
