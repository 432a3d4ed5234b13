"""What a bot is: the values a plugin hands over through the hooks.

A bot *type* (:class:`BotType`) is a name, a one-line summary, the options it accepts
and a factory. The factory makes one :class:`Bot` for one seat of one match; the seat
keeps that object for the whole match, so a bot may remember what it saw between
decisions. A bot only ever receives its game's view of its seat (for Lodam a
``PlayerView``): what its seat may know, nothing more. Its answer is checked again by
the engine. A type declares the games it plays (``games``, names of
:mod:`lodam_p2p.games`); a table seats it only at those.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

#: In :attr:`BotType.games`: the bot plays every game (it needs only ``view.legal``).
ANY_GAME = "*"

#: Bot names: lower case, so that ``NAME*K`` and ``NAME.key=value`` parse unambiguously.
BOT_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


class BotError(ValueError):
    """Base of every bot-related error (bad name, bad option, bad answer)."""


class BotOptionError(BotError):
    """A bot option that the bot type does not know, or a value it cannot take."""


@runtime_checkable
class Bot(Protocol):
    """One seat's decision maker for one match.

    ``decide`` is called whenever the engine awaits a decision from this seat; ``view``
    is that seat's view in its game (a Lodam ``PlayerView``; every game's view has
    ``seat``, ``to_act`` and ``legal``) and ``view.legal`` lists every legal answer. The
    answer must be one of them (compared by value); anything else is an error that
    names the bot, the seat and the move.
    """

    def decide(self, view: Any) -> Any:
        """Return the action to take in ``view``; it must be in ``view.legal``."""
        ...


class BotFactory(Protocol):
    """Makes the bot for one seat of one match.

    ``seat`` is the seat it will play; ``seed`` is an integer of entropy (derived from
    the arena's ``--seed``, or drawn fresh at a table) that the bot must use for every
    random choice, so that seeded matches replay exactly; ``options`` holds every option
    the type declares, already parsed (defaults filled in).
    """

    def __call__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> Bot: ...


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"not a boolean: {text!r}")


@dataclass(frozen=True, slots=True)
class BotOption:
    """One option a bot type accepts (``--bot-option NAME.key=value``).

    ``parse`` turns the text after ``=`` into the value (and raises ``ValueError`` on a
    bad one); when omitted it follows the type of ``default`` (bool, int, float, str).
    """

    key: str
    default: object
    help: str
    parse: Callable[[str], object] | None = None

    def parse_text(self, text: str) -> object:
        """The value of ``text`` for this option; ``ValueError`` when it cannot be one."""
        if self.parse is not None:
            return self.parse(text)
        if isinstance(self.default, bool):
            return _parse_bool(text)
        if isinstance(self.default, int):
            return int(text)
        if isinstance(self.default, float):
            return float(text)
        return text


@dataclass(frozen=True, slots=True)
class BotType:
    """A kind of bot a plugin provides: the answer of the ``lodam_bot_types`` hook."""

    #: Unique name used on the command line (``--bots heuristic,random*3``).
    name: str
    #: One line for ``lodam bots``.
    summary: str
    #: Makes the bot for one seat of one match.
    factory: BotFactory
    #: The options ``NAME.key=value`` this type accepts.
    options: tuple[BotOption, ...] = field(default=())
    #: The games it plays, by name (:func:`lodam_p2p.games.get_game`), or
    #: ``(ANY_GAME,)``. A bot written before there was a second game plays Lodam.
    games: tuple[str, ...] = ("lodam",)

    def __post_init__(self) -> None:
        if not BOT_NAME.match(self.name):
            raise BotError(
                f"bad bot name {self.name!r}: use a-z, 0-9, '_' or '-', starting with a letter"
            )
        if isinstance(self.games, str) or not self.games or not all(
                isinstance(game, str) and game for game in self.games):
            raise BotError(f"bot {self.name!r}: games must be a non-empty tuple of game names")

    def plays(self, game: str) -> bool:
        """Whether this type plays ``game``."""
        return game in self.games or ANY_GAME in self.games

    def check_game(self, game: str) -> None:
        """:class:`BotError` naming the bot and its games when it does not play ``game``."""
        if not self.plays(game):
            raise BotError(f"bot {self.name!r} does not play {game} "
                           f"(it plays: {', '.join(self.games)})")

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, object]:
        """Every declared option, parsed from ``raw`` (text values) or at its default.

        Raises :class:`BotOptionError` naming the bot and key for an unknown key or a
        value the option cannot take.
        """
        known = {option.key: option for option in self.options}
        for key in raw:
            if key not in known:
                choices = ", ".join(sorted(known)) or "none"
                raise BotOptionError(
                    f"bot {self.name!r} has no option {key!r} (its options: {choices})"
                )
        values: dict[str, object] = {}
        for key, option in known.items():
            if key not in raw:
                values[key] = option.default
                continue
            try:
                values[key] = option.parse_text(raw[key])
            except ValueError as err:
                raise BotOptionError(
                    f"bot option {self.name}.{key}={raw[key]}: {err}"
                ) from None
        return values

    def make(self, seat: int, seed: int, raw_options: Mapping[str, str] | None = None) -> Bot:
        """A bot for ``seat``, with options parsed from text (see :meth:`parse_options`)."""
        return self.factory(seat=seat, seed=seed, options=self.parse_options(raw_options or {}))
