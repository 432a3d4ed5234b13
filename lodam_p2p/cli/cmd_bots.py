"""``lodam bots``: the games installed and, per game, the bots that play it: where each
comes from, and its options."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lodam_p2p.bots import ANY_GAME, BotError, BotRegistry, BotType, RegisteredBot
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


def load(plugin_dirs: list[str]) -> BotRegistry:
    """The registry, or a one-line :class:`CliError`."""
    try:
        return BotRegistry.load([Path(folder) for folder in plugin_dirs])
    except BotError as err:
        raise CliError(str(err)) from None


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
        "by_game": {
            game: {"summary": part.summary, "source": bot.source_of(part),
                   "options": _options_json(part)}
            for part in bot.type.parts for game in part.games
        },
    }


def _options_json(part: BotType) -> dict[str, object]:
    return {o.key: {"default": o.default, "help": o.help} for o in part.options}


def _print_bot(bot: RegisteredBot, part: BotType, width: int) -> None:
    """One bot as it plays one game: that game's part, source and options."""
    pad = " " * (width + 2)
    print(f"  {bot.name:<{width}}  {part.summary}")
    print(f"  {pad}from {bot.source_of(part)}")
    for option in part.options:
        print(f"  {pad}option {bot.name}.{option.key}={option.default}: {option.help}")
