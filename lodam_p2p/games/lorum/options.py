"""The table options of LORUM.md section 9, validated, with JSON and ``k=v`` forms."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lodam_p2p.games.kit.rules import OptionDoors, enum_option, json_or_text
from lodam_p2p.games.lorum.actions import OptionError

MIN_PLAYERS = 3
MAX_PLAYERS = 4


class Contract(enum.Enum):
    """The eight contracts, in the order a round plays them (LORUM.md 3)."""

    REDS = "reds"  #: Rote: each heart 1
    OBERS = "obers"  #: Ober: each Ober 2
    TRICKS = "tricks"  #: Stiche: each trick 1
    FIRST_LAST = "first_last"  #: Erster und letzter: the first and last trick
    FIFTH = "fifth"  #: Fünfter Stich
    RED_KING = "red_king"  #: Roter König
    QUARTET = "quartet"  #: Quart
    LORUM = "lorum"  #: Lorum, the rows

    @property
    def is_trick_game(self) -> bool:
        """Contracts 1–6, played in tricks."""
        return self not in (Contract.QUARTET, Contract.LORUM)

    def __str__(self) -> str:
        return self.value


#: Every contract in round order.
CONTRACTS: tuple[Contract, ...] = tuple(Contract)


class Scoring(enum.Enum):
    """How a match is scored (LORUM.md 3 and 8)."""

    POINTS = "points"  #: penalty points; the lowest total wins
    BEANS = "beans"  #: beans, pfennigs and the pot; the most beans win


class LorumStart(enum.Enum):
    """How rows start in the Lorum contract (LORUM.md 6)."""

    ANY = "any"  #: the eldest's card sets the starting rank; rows wrap Ace → 7
    UNTER = "unter"  #: rows start with an Unter and grow up to the Ace, down to the 7


@dataclass(frozen=True, slots=True)
class Options(OptionDoors):
    """Every table option; the defaults are those of LORUM.md section 9. Read from
    ``["rounds=2", "contracts=reds,lorum"]`` by :meth:`parse_assignments` (the kit's doors)."""

    rounds: int = 1
    contracts: tuple[Contract, ...] = CONTRACTS
    scoring: Scoring = Scoring.POINTS
    first_last_points: int = 4
    first_last_short: bool = False
    fifth_trick: int = 5
    red_king_blind: bool = False
    lorum_start: LorumStart = LorumStart.ANY
    lorum_play_on: bool = False
    breach_points: int = 16

    def __post_init__(self) -> None:
        _check(self)

    @staticmethod
    def convert_option(name: str, raw: object) -> object:
        """One JSON value to the option's type, or ``OptionError``."""
        return _convert(name, raw)

    @staticmethod
    def option_from_text(name: str, text: str) -> object:
        """A ``k=v`` value: a comma list for ``contracts``, else JSON when it parses."""
        return _from_text(name, text)

    @staticmethod
    def plain_option(name: str, value: object) -> object:
        """One option's value as JSON: the contracts as a list of their names."""
        if name == "contracts" and isinstance(value, tuple):
            return [c.value for c in value]
        return OptionDoors.plain_option(name, value)

    def fifth_points(self) -> int:
        """Points of the scoring trick of ``fifth``: 8 for the fifth, 5 for the sixth."""
        return 8 if self.fifth_trick == 5 else 5


_ENUMS: dict[str, type[enum.Enum]] = {"scoring": Scoring, "lorum_start": LorumStart}
_BOOLS = ("first_last_short", "red_king_blind", "lorum_play_on")
#: name → allowed values (None: any integer ≥ the low bound in ``_LOW``)
_CHOICES: dict[str, tuple[int, ...] | None] = {
    "rounds": None, "breach_points": None, "first_last_points": (4, 5), "fifth_trick": (5, 6),
}
_LOW = {"rounds": 1, "breach_points": 0}


def _convert(name: str, raw: object) -> object:
    """One JSON value to the option's type, or ``OptionError``."""
    if name in _ENUMS:
        return enum_option(name, raw, _ENUMS[name])
    if name == "contracts":
        return _contracts(raw)
    return raw


def _contracts(raw: object) -> tuple[Contract, ...]:
    """A list of contract names, kept in round order; each at most once."""
    if isinstance(raw, str) or not isinstance(raw, list | tuple) or not raw:
        raise OptionError(f"option contracts must be a non-empty list of names, got {raw!r}")
    chosen = set()
    for item in raw:
        match = [c for c in Contract if item == c.value or item is c]
        if not match:
            names = ", ".join(c.value for c in Contract)
            raise OptionError(f"option contracts: unknown contract {item!r} (known: {names})")
        if match[0] in chosen:
            raise OptionError(f"option contracts names {match[0].value!r} twice")
        chosen.add(match[0])
    return tuple(c for c in Contract if c in chosen)


def _from_text(name: str, text: str) -> object:
    """A ``k=v`` value: a comma list for ``contracts``, else JSON when it parses."""
    if name == "contracts" and not text.startswith("["):
        return [part.strip() for part in text.split(",") if part.strip()]
    return json_or_text(text)


def _check(o: Options) -> None:
    """Types and ranges of LORUM.md section 9."""
    for name, choices in _ENUMS.items():
        if not isinstance(getattr(o, name), choices):
            raise OptionError(f"option {name} must be a {choices.__name__}")
    for name in _BOOLS:
        if not isinstance(getattr(o, name), bool):
            raise OptionError(f"option {name} must be true or false, got {getattr(o, name)!r}")
    for name, allowed in _CHOICES.items():
        value = getattr(o, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {name} must be an integer, got {value!r}")
        if allowed is not None and value not in allowed:
            raise OptionError(f"option {name} must be one of {allowed}, got {value}")
        if allowed is None and value < _LOW[name]:
            raise OptionError(f"option {name} must be ≥ {_LOW[name]}, got {value}")
    if not isinstance(o.contracts, tuple) or _contracts(o.contracts) != o.contracts:
        raise OptionError("option contracts must be a tuple of Contracts in round order")
