"""What both games' rules engines state the same way: their errors, card masks, option
doors and the fields of a replay scenario.

This is the bottom layer: every game package (:mod:`lodam_p2p.games.lodam`,
:mod:`lodam_p2p.games.lorum`) builds on it, and it imports nothing of the project. A
game keeps its own card type and its own option names; what is here takes them as
arguments, so each rule of reading (a mask, an option, a replay field) is written once.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

E = TypeVar("E", bound=enum.Enum)
C = TypeVar("C")
O = TypeVar("O")  # noqa: E741 -- an options type


# -- errors -----------------------------------------------------------------------------


class RulesError(ValueError):
    """Base of every error a game's rules engine raises."""


class MalformedInput(RulesError):
    """Input that is not a game position at all: a wrong pack, a bad seat, a bad option."""


class OptionError(MalformedInput):
    """A table option with an unknown name or a value out of range."""


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid here; names the seat and the move."""

    def __init__(self, seat: int, action: object | None, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        move = str(action) if action is not None else "act"
        super().__init__(f"seat {seat} cannot {move}: {reason}")


class ReplayFormatError(MalformedInput):
    """A scenario that does not follow the replay format."""


# -- cards as bit masks -------------------------------------------------------------------


class Indexed(Protocol):
    """A card with its small-integer identity inside its engine."""

    @property
    def index(self) -> int: ...


def mask_of(cards: Iterable[Indexed]) -> int:
    """The bit mask of an iterable of cards (duplicates collapse)."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_in(mask: int, cards: Sequence[C]) -> tuple[C, ...]:
    """The cards of ``mask`` in index order, from ``cards`` (every card by index)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(cards[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def parse_card_list(texts: object, parse: Callable[[str], C]) -> tuple[C, ...]:
    """Parse a list of card strings with ``parse``; ``ValueError`` naming the first bad one."""
    if not isinstance(texts, list | tuple):
        raise ValueError(f"expected a list of cards, got {texts!r}")
    return tuple(parse(t) for t in texts)


class WrittenCard:
    """What every game's card type does with its text, written once: ``Card.parse``
    reads a card in any case from ``by_text`` (the game fills it once its pack is
    built), and ``repr`` is the call that gives the card back. Put it first in the bases
    of a frozen dataclass built with ``repr=False``."""

    __slots__ = ()
    #: Every card of the game by its text (upper case).
    by_text: ClassVar[Mapping[str, Any]]
    #: How the rules write two cards, for the error (``'TD' or '9C'``).
    examples: ClassVar[str]

    @classmethod
    def parse(cls, text: str) -> Self:
        """The card written ``text``; ``ValueError`` if malformed."""
        found = cls.by_text.get(text.upper()) if isinstance(text, str) else None
        if found is None:
            raise ValueError(f"not a card: {text!r} (write rank then suit, like "
                             f"{cls.examples})")
        return found  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Deck(Generic[C]):
    """A game's whole pack, every card by its engine index, and how one card is read: the
    lookups every game's ``cards`` module hands out (``card_at``, ``cards_of``,
    ``parse_cards``) stated once."""

    cards: tuple[C, ...]
    parse: Callable[[str], C]

    def card_at(self, index: int) -> C:
        """The interned card with engine index ``index``."""
        return self.cards[index]

    def cards_of(self, mask: int) -> tuple[C, ...]:
        """The cards of a mask, in index order."""
        return cards_in(mask, self.cards)

    def parse_cards(self, texts: object) -> tuple[C, ...]:
        """Parse a list of card strings; ``ValueError`` naming the first bad one."""
        return parse_card_list(texts, self.parse)


def check_hand_sizes(players: int, hand_sizes: Sequence[int], hands: Sequence[Sized]) -> None:
    """Hands given for a determinized world must be one per seat, each as large as the
    public deal says; ``MalformedInput`` naming the first that is not."""
    if len(hands) != players:
        raise MalformedInput(f"need one hand per seat ({players}), got {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != hand_sizes[seat]:
            held = hand_sizes[seat]
            raise MalformedInput(f"seat {seat} holds {held} cards, given {len(hand)}")


# -- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatCard(Generic[C]):
    """An action of ``seat`` that names one card (``None`` where a game lets it name none).
    A game's action subclasses it with its own card type and its ``decision``."""

    seat: int
    card: C


@dataclass(frozen=True, slots=True)
class CardPlay(SeatCard[C]):
    """Play ``card`` to the trick: every trick game's commonest action."""

    def __str__(self) -> str:
        return f"play {self.card}"


# -- options ----------------------------------------------------------------------------


def options_from_mapping(
    cls: type[O], values: Mapping[str, object], convert: Callable[[str, object], object]
) -> O:
    """The dataclass ``cls`` of options from JSON-ish ``values``, each by ``convert(name,
    raw)``; ``OptionError`` naming an unknown option (``cls`` checks the values)."""
    if not isinstance(values, Mapping):
        raise OptionError(f"options must be an object, got {values!r}")
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    converted: dict[str, Any] = {}
    for name, raw in values.items():
        if name not in known:
            raise OptionError(f"unknown option {name!r} (known: {', '.join(sorted(known))})")
        converted[name] = convert(name, raw)
    return cls(**converted)


class OptionDoors:
    """The doors of a game's frozen ``Options`` dataclass, written once: from JSON-ish
    values, from the CLI's ``k=v`` texts, and back to JSON-ready values.

    A game's ``Options`` inherits them and names its own readers: ``convert_option``
    (one JSON-ish value to the field's type, or ``OptionError``), ``option_from_text``
    (one ``k=v`` text to a JSON-ish value) and, where a field is not an enum or plain
    JSON, ``plain_option`` (one field's value back to JSON)."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]

    @staticmethod
    def convert_option(name: str, raw: object) -> object:
        """One JSON-ish value to the option's type, or ``OptionError``."""
        return raw

    @staticmethod
    def option_from_text(name: str, text: str) -> object:
        """A ``k=v`` value: JSON when it parses, else the text."""
        return json_or_text(text)

    @staticmethod
    def plain_option(name: str, value: object) -> object:
        """One option's value as JSON: an enum by its value."""
        return value.value if isinstance(value, enum.Enum) else value

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Self:
        """Options from JSON-ish values; ``OptionError`` naming the bad option."""
        return options_from_mapping(cls, values, cls.convert_option)

    @classmethod
    def parse_assignments(cls, items: Iterable[str]) -> Self:
        """Options from ``["name=value", …]`` (the CLI's ``--option k=v``)."""
        return cls.from_mapping(assignments(items, cls.option_from_text))

    def to_mapping(self) -> dict[str, object]:
        """JSON-ready values; ``Options.from_mapping(o.to_mapping()) == o``."""
        return {f.name: self.plain_option(f.name, getattr(self, f.name)) for f in fields(self)}


def assignments(items: Iterable[str], value_of: Callable[[str, str], object]) -> dict[str, object]:
    """``{name: value}`` of ``["name=value", …]`` (the CLI's ``--option k=v``), each value
    read by ``value_of(name, text)``; ``OptionError`` for an item without ``=``."""
    values: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option must be written name=value, got {item!r}")
        values[name.strip()] = value_of(name.strip(), text.strip())
    return values


def json_or_text(text: str) -> object:
    """A ``k=v`` value: JSON when it parses (``true``, ``7``, ``null``), else the string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def enum_option(name: str, raw: object, choices: type[E]) -> E:
    """The member of ``choices`` that ``raw`` is or names; ``OptionError`` otherwise."""
    for member in choices:
        if raw == member.value or raw is member:
            return member
    allowed = ", ".join(repr(m.value) for m in choices)
    raise OptionError(f"option {name} must be one of {allowed}, got {raw!r}")


# -- the fields of a replay scenario ------------------------------------------------------


def field(obj: Mapping[str, Any], name: str, kind: type, default: object = ...) -> Any:
    """``obj[name]`` if it is a ``kind``; ``default`` when missing or null (if given),
    else :class:`ReplayFormatError`."""
    if name not in obj:
        if default is ...:
            raise ReplayFormatError(f'missing "{name}"')
        return default
    value = obj[name]
    if value is None and default is not ...:
        return default
    if not isinstance(value, kind):
        raise ReplayFormatError(f'"{name}" has the wrong type: {value!r}')
    return value


def int_field(obj: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """``obj[name]``, an integer ``low`` … ``high`` (not a bool), or :class:`ReplayFormatError`."""
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ReplayFormatError(f'"{name}" must be an integer {low} … {high}, got {value!r}')
    return value


def card_field(texts: list[Any], name: str, parse: Callable[[str], C]) -> list[C]:
    """The cards written ``texts`` (the field ``name``), or :class:`ReplayFormatError`."""
    try:
        return [parse(t) for t in texts]
    except ValueError as err:
        raise ReplayFormatError(f'"{name}": {err}') from None


class ScriptedDeal(Protocol):
    """What :func:`run_script` needs of a game's deal."""

    @property
    def is_over(self) -> bool: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def awaiting(self) -> enum.Enum | None: ...
    def default_action(self) -> Any: ...
    def apply(self, action: Any) -> None: ...


class Scripted(Protocol):
    """A scripted action, as far as the script runner reads it."""

    @property
    def seat(self) -> int: ...


A = TypeVar("A", bound=Scripted)


def run_script(
    deal: ScriptedDeal,
    actions: Sequence[A],
    takes_default: Callable[[A | None, int, enum.Enum], bool],
) -> tuple[int, dict[str, Any] | None]:
    """Drive ``deal`` by ``actions``; (actions used, error or None). Whenever the deal
    awaits a decision with a default and ``takes_default(next action, seat, awaited)``
    says the next action is not that decision, the default is applied and the action
    waits. The first refused action, or the actions running out, is the error."""
    used = 0
    while not deal.is_over:
        seat, awaiting = deal.to_act, deal.awaiting
        assert seat is not None and awaiting is not None
        action = actions[used] if used < len(actions) else None
        default = deal.default_action()
        if default is not None and takes_default(action, seat, awaiting):
            deal.apply(default)
            continue
        if action is None:
            message = f"the actions ran out with seat {seat} to {awaiting.value}"
            return used, {"index": used, "seat": seat, "message": message}
        try:
            deal.apply(action)
        except IllegalAction as err:
            return used, {"index": used, "seat": action.seat, "message": str(err)}
        used += 1
    return used, None
