"""What an arena run is asked to do, parsed and checked before any card is dealt.

The line-up names one bot per seat (``heuristic,random*3`` is four seats). Matches are
played in *rotation groups*: a group plays the line-up once from every rotation (seat
``s`` runs ``lineup[(s + r) % n]`` in rotation ``r``), each rotation meeting the same
deck stream and the same first dealer, so every bot meets the same deals from every
seat. In a paired comparison (``--compare A,B``) the line-up gets one more seat, the
*candidate*, played once by A and once by B on the same deals from the same seat.

A seat entry may carry a label, ``NAME@LABEL``: the same bot type under another name in
the report, with its own ``--bot-option NAME@LABEL.key=value`` — so a bot can be
compared with itself under other options (``--compare heuristic@careful,heuristic``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lodam_p2p.bots.api import BotError, BotStartError
from lodam_p2p.bots.registry import BotRegistry
from lodam_p2p.games import DEFAULT_GAME, Game, GameError, any_seat_range, get_game

#: A match that has not ended after this many deals is stopped and counted unfinished.
DEFAULT_MAX_DEALS = 500


#: A seat entry: a bot name, optionally labelled (``heuristic@careful``) so that one bot
#: type can sit at the table twice with different options.
SEAT_ENTRY = re.compile(r"^[a-z][a-z0-9_-]{0,31}(@[a-z0-9_-]{1,32})?$")


def bot_type_name(entry: str) -> str:
    """The bot type of a seat entry: ``heuristic@careful`` → ``heuristic``."""
    return entry.partition("@")[0]


class ArenaError(ValueError):
    """Bad arena input: an unknown bot, a bad count, a bad option. One line for people."""


def parse_lineup(text: str, most: int | None = None) -> tuple[str, ...]:
    """``"heuristic,random*3"`` → ``("heuristic", "random", "random", "random")``; at
    most ``most`` seats (default: the most any installed game seats)."""
    limit = any_seat_range().high if most is None else most
    seats: list[str] = []
    for item in text.split(","):
        name, star, count_text = item.strip().partition("*")
        name = name.strip()
        if not SEAT_ENTRY.match(name):
            raise ArenaError(f"bad bot name {name!r} in {text!r} (NAME, NAME*K or NAME@LABEL)")
        count = 1
        if star:
            try:
                count = int(count_text)
            except ValueError:
                raise ArenaError(f"bad seat count {count_text!r} after {name}*") from None
            if count < 1:
                raise ArenaError(f"seat count must be at least 1: {item.strip()!r}")
        seats.extend([name] * count)
        if len(seats) > limit:
            raise ArenaError(f"at most {limit} seats, --bots {text!r} asks for more")
    return tuple(seats)


def parse_bot_options(items: Iterable[str]) -> dict[str, dict[str, str]]:
    """``["ismcts.time_ms=50"]`` → ``{"ismcts": {"time_ms": "50"}}`` (values stay text)."""
    parsed: dict[str, dict[str, str]] = {}
    for item in items:
        target, equals, value = item.partition("=")
        name, dot, key = target.strip().partition(".")
        if not equals or not dot or not name or not key.strip():
            raise ArenaError(f"bot option must be written NAME.key=value, got {item!r}")
        parsed.setdefault(name, {})[key.strip()] = value.strip()
    return parsed


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """One arena run. Plain values only: it is sent to worker processes."""

    lineup: tuple[str, ...]  #: bot per seat (in a comparison: the field, without the candidate)
    matches: int  #: matches to play (in a comparison: pairs of matches)
    seed: int
    #: the game's options (a plain value of the game); ``None``: its defaults
    options: Any = None
    #: ``(name, ((key, text), ...))`` per bot name with options.
    bot_options: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    max_deals: int = DEFAULT_MAX_DEALS
    compare: tuple[str, str] | None = None  #: A and B of a paired comparison
    plugin_dirs: tuple[str, ...] = ()  #: folders named on the command line
    default_plugin_dirs: bool = True  #: also ``$LODAM_PLUGIN_PATH`` and the user folder
    entry_points: bool = True  #: also installed packages
    game: str = DEFAULT_GAME  #: the game played, by name
    #: seconds per decision for every bot (``--budget``); ``None``: each type's own
    budget_s: float | None = None

    @property
    def rules(self) -> Game:
        """The game played (:func:`~lodam_p2p.games.get_game`)."""
        return get_game(self.game)

    @property
    def table_options(self) -> Any:
        """The game options of every match: ``options`` or the game's defaults."""
        return self.rules.default_options() if self.options is None else self.options

    @property
    def seats(self) -> int:
        """Seats at the table (the candidate included)."""
        return len(self.lineup) + (1 if self.compare else 0)

    @property
    def variants(self) -> int:
        """Matches per rotation: 1, or 2 in a paired comparison (A, then B)."""
        return 2 if self.compare else 1

    @property
    def groups(self) -> int:
        """Rotation groups to play: whole groups, so the count is rounded up."""
        return math.ceil(self.matches / self.seats)

    @property
    def total_matches(self) -> int:
        """Matches that will be played: whole groups, both variants."""
        return self.groups * self.seats * self.variants

    def table(self, variant: int) -> tuple[str, ...]:
        """The line-up of ``variant``: in a comparison the candidate comes first."""
        if self.compare is None:
            return self.lineup
        return (self.compare[variant], *self.lineup)

    def options_of(self, name: str) -> Mapping[str, str]:
        """The option texts given for bot ``name``."""
        for bot, pairs in self.bot_options:
            if bot == name:
                return dict(pairs)
        return {}

    def names(self) -> list[str]:
        """Every bot name that plays, in line-up order, once each."""
        ordered = [*(self.compare or ()), *self.lineup]
        return list(dict.fromkeys(ordered))


def build_config(
    lineup_text: str,
    matches: int,
    seed: int,
    *,
    options: Iterable[str] = (),
    bot_options: Iterable[str] = (),
    compare: str | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    plugin_dirs: Iterable[str] = (),
    game: str = DEFAULT_GAME,
    budget_s: float | None = None,
) -> ArenaConfig:
    """An :class:`ArenaConfig` from command-line texts; :class:`ArenaError` on bad input."""
    try:
        rules = get_game(game)
    except GameError as err:
        raise ArenaError(str(err)) from None
    lineup = parse_lineup(lineup_text)
    pair: tuple[str, str] | None = None
    if compare is not None:
        names = parse_lineup(compare)
        if len(names) != 2:
            raise ArenaError(f"--compare takes two bot names A,B, got {compare!r}")
        pair = (names[0], names[1])
    seats = len(lineup) + (1 if pair else 0)
    if seats not in rules.seats:
        raise ArenaError(f"a table of {rules.title} needs {rules.seats} seats, got {seats}")
    if matches < 1:
        raise ArenaError(f"--matches must be at least 1, got {matches}")
    if max_deals < 1:
        raise ArenaError(f"--max-deals must be at least 1, got {max_deals}")
    try:
        table_options = rules.parse_options(options)
    except ValueError as err:
        raise ArenaError(str(err)) from None
    if budget_s is not None and not (math.isfinite(budget_s) and budget_s > 0):
        raise ArenaError(f"--budget must be a positive number of seconds, got {budget_s}")
    by_bot = parse_bot_options(bot_options)
    return ArenaConfig(
        lineup=lineup,
        matches=matches,
        seed=seed,
        options=table_options,
        bot_options=tuple(
            (name, tuple(sorted(keys.items()))) for name, keys in sorted(by_bot.items())
        ),
        max_deals=max_deals,
        compare=pair,
        plugin_dirs=tuple(plugin_dirs),
        game=rules.name,
        budget_s=budget_s,
    )


def check_against(config: ArenaConfig, registry: BotRegistry) -> None:
    """Every bot is installed, every bot option is one its type accepts, and every bot
    can be made (a factory that raises is a :class:`~lodam_p2p.bots.api.BotStartError`
    naming the bot and where it came from, before any card is dealt)."""
    playing = config.names()
    try:
        for name in playing:
            bot_type = registry.get(bot_type_name(name))
            bot_type.check_game(config.game)
            bot_type.parse_options(config.options_of(name), config.game)
    except BotError as err:
        raise ArenaError(str(err)) from None
    for name, _pairs in config.bot_options:
        if name not in playing:
            raise ArenaError(f"--bot-option for {name!r}, which has no seat at this table")
    for name in playing:
        try:
            registry.get(bot_type_name(name)).make(0, config.seed, config.options_of(name),
                                                   game=config.game)
        except BotStartError as err:
            raise err.from_source(registry.source(bot_type_name(name))) from err.err
