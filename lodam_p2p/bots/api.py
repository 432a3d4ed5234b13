"""What a bot is: the values a plugin hands over through the hooks.

A bot *type* (:class:`BotType`) is a name, a one-line summary, the options it accepts
and a factory. The factory makes one :class:`Bot` for one seat of one match; the seat
keeps that object for the whole match, so a bot may remember what it saw between
decisions. A bot only ever receives its game's view of its seat (for Lodam a
``PlayerView``): what its seat may know, nothing more. Its answer is checked again by
the engine. A type declares the games it plays (``games``, names of
:mod:`lodam_p2p.games`); a table seats it only at those, and its thinking time per
decision (``budget_s``, :mod:`lodam_p2p.bots.budget`).

:class:`Bot` is generic in the view it reads and the action it answers, both the
game's own types: ``Bot[lodam.PlayerView, lodam.Action]`` plays Lodam,
``Bot[lorum.PlayerView, lorum.Action]`` Lorum (:mod:`lodam_p2p.bots.contract` names
them), and a bot that reads only what every view has (the games kit's
:class:`~lodam_p2p.games.kit.deals.SeatView`) plays any game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, runtime_checkable

from lodam_p2p.bots.budget import DEFAULT_BUDGET_S, check_budget
from lodam_p2p.bots.dispatch import ByGame
from lodam_p2p.bots.faults import format_trace
from lodam_p2p.games import DEFAULT_GAME, SeatView

#: In :attr:`BotType.games`: the bot plays every game (it needs only ``view.legal``).
ANY_GAME = "*"

#: Bot names: lower case, so that ``NAME*K`` and ``NAME.key=value`` parse unambiguously.
BOT_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


class BotError(ValueError):
    """Base of every bot-related error (bad name, bad option, bad answer)."""


class BotOptionError(BotError):
    """A bot option that the bot type does not know, or a value it cannot take."""


class BotStartError(BotError):
    """A bot's factory raised: the bot could not be made for its seat.

    One line for people (``bot 'x' could not start at seat 0: RuntimeError: …``);
    ``trace`` keeps the traceback for ``-v``, ``source`` where the bot came from once a
    caller that knows it says so (:meth:`from_source`)."""

    def __init__(self, bot_name: str, seat: int, err: Exception, source: str = "",
                 trace: str = "") -> None:
        where = f" (from {source})" if source else ""
        super().__init__(f"bot {bot_name!r}{where} could not start at seat {seat}: "
                         f"{type(err).__name__}: {err}")
        self.bot_name, self.seat, self.err, self.source = bot_name, seat, err, source
        self.trace = trace or format_trace(err)

    def __reduce__(self) -> tuple[object, ...]:  # it crosses to the arena's main process
        return (BotStartError, (self.bot_name, self.seat, self.err, self.source, self.trace))

    def from_source(self, source: str) -> BotStartError:
        """The same error naming where the bot came from."""
        return BotStartError(self.bot_name, self.seat, self.err, source, self.trace)


#: The view a bot reads: a game's view of one seat (at least the kit's ``SeatView``).
ViewT_contra = TypeVar("ViewT_contra", bound=SeatView, contravariant=True)
#: The action a bot answers: one of the game's actions.
ActionT_co = TypeVar("ActionT_co", covariant=True)


@runtime_checkable
class Bot(Protocol[ViewT_contra, ActionT_co]):
    """One seat's decision maker for one match, generic in its game's view and action.

    ``decide`` is called whenever the engine awaits a decision from this seat; ``view``
    is that seat's view in its game (every game's view has ``seat``, ``to_act`` and
    ``legal``, the kit's :class:`~lodam_p2p.games.kit.deals.SeatView`; the rest is the
    game's own, documented per game in ``docs/bots.md``) and ``view.legal`` lists every
    legal answer. The answer must be one of them (compared by value); anything else is
    an error that names the bot, the seat and the move
    (:mod:`lodam_p2p.bots.faults`).
    """

    def decide(self, view: ViewT_contra) -> ActionT_co:
        """Return the action to take in ``view``; it must be in ``view.legal``."""
        ...


class BotFactory(Protocol):
    """Makes the bot for one seat of one match.

    ``seat`` is the seat it will play; ``seed`` is an integer of entropy (derived from
    the arena's ``--seed``, or drawn fresh at a table) that the bot must use for every
    random choice, so that seeded matches replay exactly; ``options`` holds every option
    the type declares, already parsed (defaults filled in).
    """

    def __call__(self, *, seat: int, seed: int,
                 options: Mapping[str, object]) -> Bot[Any, Any]: ...


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
    """A kind of bot a plugin provides: the answer of the ``lodam_bot_types`` hook.

    One type may play several games with one factory (``games=("lodam", "lorum")``), or
    be *joined* from one type per game that share a name (each its own plugin, factory
    and options; :meth:`joined`, done by the registry). The options of the parts stay
    apart: ``ismcts.c`` is Lodam's constant at a Lodam table and Lorum's at a Lorum one.
    """

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
    #: The same bot for other games, each with its own factory and options (see
    #: :meth:`joined`); empty for a type of one plugin.
    others: tuple[BotType, ...] = field(default=())
    #: Seconds of thinking per decision (:mod:`lodam_p2p.bots.budget`); ``None``:
    #: :data:`~lodam_p2p.bots.budget.DEFAULT_BUDGET_S`.
    budget_s: float | None = None

    def __post_init__(self) -> None:
        if not BOT_NAME.match(self.name):
            raise BotError(
                f"bad bot name {self.name!r}: use a-z, 0-9, '_' or '-', starting with a letter"
            )
        if isinstance(self.games, str) or not self.games or not all(
                isinstance(game, str) and game for game in self.games):
            raise BotError(f"bot {self.name!r}: games must be a non-empty tuple of game names")
        try:
            check_budget(self.budget_s, self.name)
        except ValueError as err:
            raise BotError(str(err)) from None

    @property
    def budget(self) -> float:
        """Seconds of thinking per decision: the declared budget or the default."""
        return DEFAULT_BUDGET_S if self.budget_s is None else self.budget_s

    @property
    def parts(self) -> tuple[BotType, ...]:
        """This type's own part, then one per other game it was joined with."""
        own = self if not self.others else replace(self, others=())
        return (own, *self.others)

    @property
    def all_games(self) -> tuple[str, ...]:
        """Every game some part plays, in part order."""
        return tuple(game for part in self.parts for game in part.games)

    def joined(self, other: BotType) -> BotType:
        """This type and ``other`` (same name, other games) as one type: the part that
        plays ``DEFAULT_GAME`` first, then the others by their first game's name.
        :class:`BotError` when the names differ or both play one game."""
        if other.name != self.name:
            raise BotError(f"cannot join bot {self.name!r} with bot {other.name!r}")
        shared = set(self.all_games) & set(other.all_games)
        if shared or ANY_GAME in (*self.all_games, *other.all_games):
            both = ", ".join(sorted(shared)) or ANY_GAME
            raise BotError(f"two bots named {self.name!r} play the same game ({both})")
        parts = sorted((*self.parts, *other.parts),
                       key=lambda part: (DEFAULT_GAME not in part.games, part.games[0]))
        return replace(parts[0], others=tuple(parts[1:]))

    def plays(self, game: str) -> bool:
        """Whether this type plays ``game``."""
        return any(game in part.games or ANY_GAME in part.games for part in self.parts)

    def check_game(self, game: str) -> None:
        """:class:`BotError` naming the bot and its games when it does not play ``game``."""
        if not self.plays(game):
            raise BotError(f"bot {self.name!r} does not play {game} "
                           f"(it plays: {', '.join(self.all_games)})")

    def for_game(self, game: str) -> BotType:
        """The part that plays ``game`` (one made for it before one for any game);
        :class:`BotError` when none does."""
        self.check_game(game)
        for part in self.parts:
            if game in part.games:
                return part
        return next(part for part in self.parts if ANY_GAME in part.games)

    def parse_options(self, raw: Mapping[str, str], game: str | None = None) -> dict[str, object]:
        """Every declared option, parsed from ``raw`` (text values) or at its default.

        With ``game``, the options of the part that plays it. Without, a joined type
        checks each key against every part that declares it (a key no part declares is
        refused) and answers with its own part's options.

        Raises :class:`BotOptionError` naming the bot and key for an unknown key or a
        value the option cannot take.
        """
        if game is not None:
            return _parse(self.for_game(game), raw)
        if not self.others:
            return _parse(self, raw)
        known = {option.key for part in self.parts for option in part.options}
        for key in raw:
            if key not in known:
                raise BotOptionError(f"bot {self.name!r} has no option {key!r} "
                                     f"(its options: {', '.join(sorted(known))})")
        answers = [_parse(part, part.own_options(raw)) for part in self.parts]
        return answers[0]

    def own_options(self, raw: Mapping[str, str]) -> dict[str, str]:
        """The items of ``raw`` whose keys this type (not its other parts) declares."""
        keys = {option.key for option in self.options}
        return {key: value for key, value in raw.items() if key in keys}

    def make(self, seat: int, seed: int, raw_options: Mapping[str, str] | None = None,
             game: str | None = None) -> Bot[Any, Any]:
        """A bot for ``seat``, with options parsed from text (see :meth:`parse_options`).

        With ``game``, the bot of the part that plays it. Without, a joined type makes a
        bot that picks its part by the first view it is asked about
        (:class:`~lodam_p2p.bots.dispatch.ByGame`). A factory that raises is a
        :class:`BotStartError` naming the bot and the seat."""
        raw = raw_options or {}
        if game is not None:
            part = self.for_game(game)
            return _built(part, seat, seed, _parse(part, raw))
        if not self.others:
            return _built(self, seat, seed, _parse(self, raw))
        self.parse_options(raw)  # refuse bad options now, not at the first decision
        return ByGame(self, seat, seed, raw)


def _built(part: BotType, seat: int, seed: int, options: dict[str, object]) -> Bot[Any, Any]:
    """``part``'s factory called for ``seat``; its failure a :class:`BotStartError`."""
    try:
        return part.factory(seat=seat, seed=seed, options=options)
    except BotError:
        raise
    except Exception as err:  # foreign code: one clear line, the traceback kept for -v
        raise BotStartError(part.name, seat, err) from err


def _parse(bot_type: BotType, raw: Mapping[str, str]) -> dict[str, object]:
    """``raw`` parsed against the options ``bot_type`` itself declares."""
    known = {option.key: option for option in bot_type.options}
    for key in raw:
        if key not in known:
            choices = ", ".join(sorted(known)) or "none"
            raise BotOptionError(
                f"bot {bot_type.name!r} has no option {key!r} (its options: {choices})"
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
                f"bot option {bot_type.name}.{key}={raw[key]}: {err}"
            ) from None
    return values
