"""``lodam bots``: the bots installed, where each comes from, and its options."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lodam_p2p.bots import BotError, BotRegistry
from lodam_p2p.bots.manager import ENTRY_POINT_GROUP, PLUGIN_PATH_ENV, user_plugin_dir
from lodam_p2p.cli import CliError

_EPILOG = f"""\
Bots are found in installed packages (entry-point group {ENTRY_POINT_GROUP}) and in
plugin folders: --plugin-dir, then ${PLUGIN_PATH_ENV}, then {user_plugin_dir()}.
See docs/bots.md for writing one."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bots``."""
    parser = sub.add_parser(
        "bots",
        help="list the installed bots",
        description="List every installed bot: name, where it comes from, summary, options.",
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
    """List the bots."""
    registry = load(args.plugin_dir)
    if args.json:
        listing = {
            bot.name: {
                "source": bot.source,
                "summary": bot.type.summary,
                "options": {o.key: {"default": o.default, "help": o.help}
                            for o in bot.type.options},
            }
            for bot in registry
        }
        print(json.dumps({"bots": listing}, default=str))
        return 0
    if not len(registry):
        print("no bots installed")
        return 0
    width = max(len(bot.name) for bot in registry)
    for bot in registry:
        print(f"{bot.name:<{width}}  {bot.type.summary}")
        print(f"{'':<{width}}  from {bot.source}")
        for option in bot.type.options:
            print(f"{'':<{width}}  option {bot.name}.{option.key}={option.default}: {option.help}")
    return 0
