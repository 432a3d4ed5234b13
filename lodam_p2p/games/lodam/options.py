"""The table options of RULES.md section 12, validated, with JSON and ``k=v`` forms."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lodam_p2p.games.kit.rules import OptionDoors, enum_option
from lodam_p2p.games.lodam.actions import OptionError

FULL_PACK_SIZE = 52
SHORT_PACK_SIZE = 32
#: Hand sizes with the 32-card pack, by active players (RULES.md 4).
SHORT_DECK_HANDS = {2: 13, 3: 9, 4: 7}
MIN_PLAYERS = 2
MAX_PLAYERS = 10


class RankOrder(enum.Enum):
    """Order of ranks within a suit."""

    WILLUGHBY = "willughby"  #: A K Q J T 9 … 2 (the default)
    PARLETT = "parlett"  #: A T K Q J 9 … 2


class ExchangeRule(enum.Enum):
    """When exchange windows open (RULES.md 5)."""

    EVERY_TRICK = "every_trick"  #: before the lead of every trick
    FIRST_TRICK = "first_trick"  #: only before the first trick
    OFF = "off"  #: never


@dataclass(frozen=True, slots=True)
class Options(OptionDoors):
    """Every table option; the defaults are those of RULES.md section 12. Read from
    ``["lives=2", "declare_out=true"]`` by :meth:`parse_assignments` (the kit's doors)."""

    rank_order: RankOrder = RankOrder.WILLUGHBY
    lives: int = 3
    out_at: int = 31
    exchanges: ExchangeRule = ExchangeRule.EVERY_TRICK
    short_deck_at: int = 0
    hand_size: int | None = None
    declare_out: bool = False
    trump_memory: bool = False
    trump_show_seconds: float = 3
    stake: int = 0
    winning: bool = False

    def __post_init__(self) -> None:
        _check(self)

    @staticmethod
    def convert_option(name: str, raw: object) -> object:
        """One JSON value to the option's type, or ``OptionError``."""
        return _convert(name, raw)

    def short_deck(self, active_players: int) -> bool:
        """Whether a deal among ``active_players`` uses the 32-card pack."""
        return 0 < active_players <= self.short_deck_at

    def pack_size(self, active_players: int) -> int:
        """52, or 32 once ``short_deck_at`` or fewer players remain."""
        return SHORT_PACK_SIZE if self.short_deck(active_players) else FULL_PACK_SIZE

    def hand_size_for(self, active_players: int) -> int:
        """Cards per hand for ``active_players`` (RULES.md 4); ``OptionError`` if impossible."""
        if not MIN_PLAYERS <= active_players <= MAX_PLAYERS:
            raise OptionError(f"a deal needs 2 to 10 active players, got {active_players}")
        pack = self.pack_size(active_players)
        if self.hand_size is not None:
            size = self.hand_size
        elif pack == SHORT_PACK_SIZE:
            size = SHORT_DECK_HANDS[active_players]
        else:
            size = (FULL_PACK_SIZE - 3) // active_players
        if size * active_players > pack - 1:
            raise OptionError(
                f"hand_size {size} for {active_players} players leaves no talon "
                f"in a {pack}-card pack"
            )
        return size


_ENUMS: dict[str, type[enum.Enum]] = {"rank_order": RankOrder, "exchanges": ExchangeRule}
_BOOLS = {"declare_out", "trump_memory", "winning"}
_INTS = {"lives", "out_at", "short_deck_at", "stake"}


def _convert(name: str, raw: object) -> object:
    """One JSON value to the option's type, or ``OptionError``."""
    if name in _ENUMS:
        return enum_option(name, raw, _ENUMS[name])
    if name in _BOOLS:
        if not isinstance(raw, bool):
            raise OptionError(f"option {name} must be true or false, got {raw!r}")
        return raw
    if name in _INTS or (name == "hand_size" and raw is not None):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise OptionError(f"option {name} must be an integer, got {raw!r}")
        return raw
    if name == "trump_show_seconds":
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise OptionError(f"option {name} must be a number, got {raw!r}")
        return raw
    return raw


def _check(o: Options) -> None:
    """Range checks of RULES.md section 12."""
    for name, choices in _ENUMS.items():
        if not isinstance(getattr(o, name), choices):
            raise OptionError(f"option {name} must be a {choices.__name__}")
    ranges = {
        "lives": (o.lives, 1, 9),
        "out_at": (o.out_at, 1, 108),
        "stake": (o.stake, 0, None),
    }
    for name, (value, low, high) in ranges.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {name} must be an integer, got {value!r}")
        if value < low or (high is not None and value > high):
            span = f"{low} … {high}" if high is not None else f"≥ {low}"
            raise OptionError(f"option {name} must be {span}, got {value}")
    if o.short_deck_at not in (0, 2, 3, 4):
        raise OptionError(f"option short_deck_at must be 0, 2, 3 or 4, got {o.short_deck_at!r}")
    if o.hand_size is not None and (
        isinstance(o.hand_size, bool) or not isinstance(o.hand_size, int) or o.hand_size < 1
    ):
        raise OptionError(f"option hand_size must be an integer ≥ 1, got {o.hand_size!r}")
    if not (isinstance(o.trump_show_seconds, int | float) and o.trump_show_seconds > 0):
        raise OptionError(f"option trump_show_seconds must be > 0, got {o.trump_show_seconds!r}")
    for name in _BOOLS:
        if not isinstance(getattr(o, name), bool):
            raise OptionError(f"option {name} must be true or false")
