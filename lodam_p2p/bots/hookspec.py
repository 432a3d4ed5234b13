"""The hooks a bot plugin implements.

One marker pair for the whole project, named ``"lodam_p2p"``. A plugin is any module
(or object) with functions decorated ``@hookimpl`` whose names match the hooks below;
it may take fewer arguments than the spec (pluggy passes only what it asks for).
The bundled bots in the top-level ``plugins/`` package use exactly these hooks and are
found the same way as a third-party package: through the ``lodam_p2p.bots`` entry-point
group (see :mod:`lodam_p2p.bots.manager`). ``docs/bots.md`` documents every hook here; a
test fails when one is missing there.

Example plugin::

    from lodam_p2p.bots import BotType, hookimpl

    @hookimpl
    def lodam_bot_types():
        return [BotType("first", "always the first legal move", FirstBot)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from lodam_p2p.bots.api import BotType

#: The pluggy project name shared by every hook and implementation.
PROJECT = "lodam_p2p"

#: Marks a function below as a hook specification.
hookspec = pluggy.HookspecMarker(PROJECT)
#: Marks a plugin's function as the implementation of a hook.
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def lodam_bot_types() -> Sequence[BotType]:
    """Return the bot types this plugin provides.

    Called once when the bot registry loads. Not ``firstresult``: the answers of every
    plugin are gathered, so one plugin may provide several types and several plugins
    add up. A plugin that provides none returns an empty sequence.

    :return: the :class:`~lodam_p2p.bots.api.BotType` values (name, one-line summary,
        declared options, factory, games). Types of one name from several plugins
        are joined into one type when they play different games (one plugin per game,
        each with its own options); two that play a common game are an error naming
        both sources.
    """
    raise NotImplementedError  # pragma: no cover - a specification has no body


@hookspec(firstresult=True)
def lodam_bot_fallback(bot_name: str, seat: int) -> BotType | None:
    """Choose the bot type that takes over a seat whose bot failed.

    Called wherever a bot plays (the arena, ``play``, ``host``, ``join``, ``bot``) when
    a bot raised, gave an answer the engine refused or went over its time budget; the
    fallback plays that move and the seat for the rest of the match (the error is
    logged, counted and listed in ``bot_errors``; the match goes on unless the seat is
    strict, ``--strict-bots``). ``firstresult``: the first plugin that
    returns a type decides; when every plugin returns ``None`` the bundled ``random``
    bot is used (and when that is absent too, the first legal move).

    :param bot_name: name of the bot that failed.
    :param seat: the seat it was playing.
    :return: a :class:`~lodam_p2p.bots.api.BotType`, or ``None`` to leave the choice to
        later plugins and the default.
    """
    raise NotImplementedError  # pragma: no cover - a specification has no body
