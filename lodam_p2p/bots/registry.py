"""The bot registry: every bot type the loaded plugins provide, by name.

Two plugins may provide a type of the same name for different games (the bundled
``heuristic`` is one plugin for Lodam and one for Lorum): the registry joins them into
one type that plays both, each game with its own factory and options. Two types of one
name that play a common game are an error naming both sources."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pluggy

from lodam_p2p.bots.api import Bot, BotError, BotStartError, BotType
from lodam_p2p.bots.manager import PluginLoadError, load_plugins, plugin_source


class UnknownBotError(BotError):
    """A bot name that no loaded plugin provides."""


@dataclass(frozen=True, slots=True)
class RegisteredBot:
    """A bot type and where it came from (for ``lodam bots``); a type joined from one
    plugin per game keeps where each part came from (:meth:`source_of`)."""

    type: BotType
    source: str
    #: ``(first game of a part, its source)`` for each part of a joined type.
    part_sources: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """The bot's name."""
        return self.type.name

    def source_of(self, part: BotType) -> str:
        """Where ``part`` (one of ``type.parts``) came from."""
        return dict(self.part_sources).get(part.games[0], self.source)

    def joined(self, other: RegisteredBot) -> RegisteredBot:
        """Both as one bot: the joined type (:meth:`BotType.joined`), every source."""
        joined = self.type.joined(other.type)
        known = {**self._sources(), **other._sources()}
        part_sources = tuple((part.games[0], known[part.games[0]]) for part in joined.parts)
        source = ", ".join(dict.fromkeys(src for _game, src in part_sources))
        return RegisteredBot(joined, source, part_sources)

    def _sources(self) -> dict[str, str]:
        return {part.games[0]: self.source_of(part) for part in self.type.parts}


class BotRegistry:
    """Bot types by name, gathered from the ``lodam_bot_types`` hook of every plugin."""

    def __init__(self, manager: pluggy.PluginManager) -> None:
        self.manager = manager
        self._bots: dict[str, RegisteredBot] = {}
        for impl in manager.hook.lodam_bot_types.get_hookimpls():
            source = plugin_source(manager, impl.plugin)
            answer = _call_types_hook(impl.function, source)
            for bot_type in answer:
                self._add(RegisteredBot(bot_type, source))

    @classmethod
    def load(
        cls,
        plugin_dirs: Sequence[Path] = (),
        *,
        entry_points: bool = True,
        default_dirs: bool = True,
    ) -> BotRegistry:
        """Load every plugin (see :func:`~lodam_p2p.bots.manager.load_plugins`)."""
        return cls(load_plugins(plugin_dirs, entry_points=entry_points, default_dirs=default_dirs))

    def _add(self, bot: RegisteredBot) -> None:
        """Add ``bot``; one of the same name joins it when their games differ."""
        clash = self._bots.get(bot.name)
        if clash is None:
            self._bots[bot.name] = bot
            return
        try:
            self._bots[bot.name] = clash.joined(bot)
        except BotError as err:
            raise PluginLoadError(
                f"two plugins provide a bot named {bot.name!r}: {clash.source} and "
                f"{bot.source} ({err})"
            ) from None

    def __iter__(self) -> Iterator[RegisteredBot]:
        return iter(sorted(self._bots.values(), key=lambda bot: bot.name))

    def __contains__(self, name: object) -> bool:
        return name in self._bots

    def __len__(self) -> int:
        return len(self._bots)

    def names(self) -> list[str]:
        """Every bot name, sorted."""
        return sorted(self._bots)

    def get(self, name: str) -> BotType:
        """The bot type called ``name`` (joined over the games its plugins play);
        :class:`UnknownBotError` listing the known ones."""
        try:
            return self._bots[name].type
        except KeyError:
            known = ", ".join(self.names()) or "none installed"
            raise UnknownBotError(f"unknown bot {name!r} (installed: {known})") from None

    def source(self, name: str) -> str:
        """Where the bot ``name`` came from (a file, an entry point), or ``?``."""
        bot = self._bots.get(name)
        return bot.source if bot is not None else "?"

    def make(self, name: str, seat: int, seed: int, raw_options: dict[str, str] | None = None,
             game: str | None = None) -> Bot[Any, Any]:
        """The bot ``name`` for ``seat`` (:meth:`BotType.make`); a factory that raises is a
        :class:`~lodam_p2p.bots.api.BotStartError` naming the bot and its source."""
        try:
            return self.get(name).make(seat, seed, raw_options, game)
        except BotStartError as err:
            raise err.from_source(self.source(name)) from err.err

    def fallback(self, bot_name: str, seat: int) -> BotType | None:
        """The type that takes over a failed seat: a plugin's choice, else ``random``."""
        chosen: BotType | None = self.manager.hook.lodam_bot_fallback(bot_name=bot_name, seat=seat)
        if chosen is not None:
            return chosen
        return self._bots["random"].type if "random" in self._bots else None


def _call_types_hook(function: object, source: str) -> list[BotType]:
    """Call one plugin's ``lodam_bot_types`` and check its answer's shape."""
    try:
        answer = function()  # type: ignore[operator]
    except Exception as err:  # foreign code: one clear line instead of a traceback
        raise PluginLoadError(f"plugin {source}: lodam_bot_types failed: {err}") from None
    if answer is None:
        return []
    if not isinstance(answer, list | tuple) or not all(isinstance(t, BotType) for t in answer):
        raise PluginLoadError(
            f"plugin {source}: lodam_bot_types must return a sequence of BotType"
        )
    return list(answer)
