"""Bots as pluggy plugins.

A plugin implements the hooks of :mod:`lodam_p2p.bots.hookspec` (marked with
:data:`hookimpl`) and is found through the ``lodam_p2p.bots`` entry-point group or a
local plugin folder (:mod:`lodam_p2p.bots.manager`). The bundled ``random`` and
``heuristic`` bots in the top-level ``plugins/`` package are found the same way.
``docs/bots.md`` is the plugin authors' guide.
"""

from lodam_p2p.bots.api import (
    ANY_GAME,
    Bot,
    BotError,
    BotFactory,
    BotOption,
    BotOptionError,
    BotStartError,
    BotType,
)
from lodam_p2p.bots.budget import DEFAULT_BUDGET_S, MARGIN_S
from lodam_p2p.bots.faults import KINDS, BotFault
from lodam_p2p.bots.guard import BotAnswerError, ask, describe
from lodam_p2p.bots.hookspec import hookimpl
from lodam_p2p.bots.manager import ENTRY_POINT_GROUP, PLUGIN_PATH_ENV, PluginLoadError
from lodam_p2p.bots.registry import BotRegistry, RegisteredBot, UnknownBotError

__all__ = [
    "ANY_GAME",
    "DEFAULT_BUDGET_S",
    "ENTRY_POINT_GROUP",
    "KINDS",
    "MARGIN_S",
    "PLUGIN_PATH_ENV",
    "Bot",
    "BotAnswerError",
    "BotError",
    "BotFactory",
    "BotFault",
    "BotOption",
    "BotOptionError",
    "BotRegistry",
    "BotStartError",
    "BotType",
    "PluginLoadError",
    "RegisteredBot",
    "UnknownBotError",
    "ask",
    "describe",
    "hookimpl",
]
