"""What every bundled game's :class:`~lodam_p2p.games.interface.Game` states the same way.

Both games keep their options in a frozen value type with the same three doors —
``parse_assignments(["k=v", …])``, ``from_mapping({...})`` and ``to_mapping()`` — and
write their cards as text that ``Card.parse`` reads. :class:`OptionsOfType` answers the
interface's option and card questions from those doors, so a game states only its
types and its help texts. :func:`checked` is the one test a game applies to a value
handed back through the interface (a match, a deal, options) before it uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Protocol, TypeVar

from lodam_p2p.games.kit.values import (
    Card,
    GameError,
    OptionRow,
    PublicMove,
    Replayed,
    ReplayError,
    SeatRange,
    Turn,
    WireAction,
)

T = TypeVar("T")


class CardText(Protocol):
    """A game's card type, as far as reading cards goes."""

    @classmethod
    def parse(cls, text: str) -> Any: ...


class OptionsOfType:
    """The option and card methods of :class:`~lodam_p2p.games.interface.Game`, from
    ``options_type``, ``card_type`` and ``option_help``; put it before ``Game``."""

    #: The game's options value type (``Options()`` is the default table).
    options_type: type
    #: The game's card type (``Card.parse(text)``).
    card_type: ClassVar[type[CardText]]
    #: One line of help per option name.
    option_help: ClassVar[Mapping[str, str]]
    #: How the game names its options in errors (``Lodam options``).
    title: str

    def default_options(self) -> Any:
        """The options of a table that names none."""
        return self.options_type()

    def parse_options(self, assignments: Iterable[str]) -> Any:
        """Options from ``["k=v", …]`` texts; ``ValueError`` naming the bad one."""
        return self.options_type.parse_assignments(assignments)  # type: ignore[attr-defined]

    def options_from_mapping(self, values: Mapping[str, object]) -> Any:
        """Options from a JSON object; ``ValueError`` naming the bad one."""
        return self.options_type.from_mapping(values)  # type: ignore[attr-defined]

    def options_to_mapping(self, options: Any) -> dict[str, object]:
        """The JSON form of ``options``."""
        found: Any = checked(options, self.options_type, f"{self.title} options")
        mapping: dict[str, object] = found.to_mapping()
        return mapping

    def option_rows(self) -> tuple[OptionRow, ...]:
        """Every option with its default and its line of help."""
        defaults = self.default_options().to_mapping()
        return tuple(OptionRow(name, value, self.option_help.get(name, ""))
                     for name, value in defaults.items())

    def parse_card(self, text: str) -> Card:
        """The card written ``text``; ``ValueError`` if it is not one of this game."""
        card: Card = self.card_type.parse(text)
        return card


class EngineDoors:
    """The match, deal and wire methods of :class:`~lodam_p2p.games.interface.Game` that
    an engine answers the same way in every game: a match starts by ``Match.start(options,
    players, first_dealer)`` after the seat count is checked, a deal's public part is its
    ``public``, whose ``whose_turn()`` says whose step it is, and actions cross the wire
    by the game's codec module (``encode``, ``decode``, ``apply_public``). Put it before
    ``Game``; the game names its types."""

    #: The engine's match type (``Match.start(options, players, first_dealer)``).
    match_type: ClassVar[type[Any]]
    #: The engine's deal type (``deal.public`` is its public part).
    deal_type: ClassVar[type[Any]]
    #: The engine's public deal type (``public.whose_turn()``).
    public_type: ClassVar[type[Any]]
    #: The game's action codec module: ``encode(action)``, ``decode(seat, wire)`` and
    #: ``apply_public(public, move)``.
    action_codec: Any
    #: How the game names its values in errors (``a Lodam deal``).
    noun: ClassVar[str]
    seats: SeatRange
    title: str
    options_type: type

    def start_match(self, options: Any, players: int, first_dealer: int) -> Any:
        """A new match of ``players`` seats; ``ValueError`` for a count the game refuses."""
        self.seats.check(players, self.title)
        found: Any = checked(options, self.options_type, f"{self.noun} options")
        return self.match_type.start(found, players, first_dealer)

    def public_part(self, deal: Any) -> Any:
        """What every seat knows of ``deal``."""
        return checked(deal, self.deal_type, f"a {self.noun} deal").public

    def turn(self, public: Any) -> Turn:
        """Whose step it is as the public part knows it (a seat, or a :class:`Holder`)."""
        found: Any = checked(public, self.public_type, f"a {self.noun} public deal")
        turn: Turn = found.whose_turn()
        return turn

    def public_apply(self, public: Any, move: PublicMove) -> None:
        """Advance ``public`` by ``move`` as the codec reads it, checking what public
        knowledge can check."""
        self.action_codec.apply_public(
            checked(public, self.public_type, f"a {self.noun} public deal"), move)

    def encode_action(self, action: Any) -> WireAction:
        """``action`` as it crosses the wire."""
        wire: WireAction = self.action_codec.encode(action)
        return wire

    def decode_action(self, seat: int, wire: WireAction) -> Any:
        """The action ``seat`` sent as ``wire``; ``ValueError`` if it is not one."""
        return self.action_codec.decode(seat, wire)


def replayed(deal: Any, actions: Iterable[Any], refused: type[Exception],
             offence: Callable[[Any], str]) -> Replayed:
    """The audit replay of an engine whose deal refuses an action by raising
    ``refused`` (an error that names its ``seat``): ``actions`` applied one by one to
    ``deal`` until the first refused, named by ``offence(error)``."""
    applied = 0
    for index, action in enumerate(actions):
        try:
            deal.apply(action)
        except refused as err:
            seat: int = getattr(err, "seat")  # noqa: B009 - every game's refusal names it
            return Replayed(deal, applied, ReplayError(index, seat, offence(err), str(err)))
        applied += 1
    return Replayed(deal, applied, None)


def checked(value: object, kind: type[T], what: str) -> T:
    """``value`` if it is a ``kind``, else :class:`GameError` saying it is not ``what``
    (a value of another game handed to this one)."""
    if not isinstance(value, kind):
        raise GameError(f"not {what}: {value!r}")
    return value


def checker(kind: type[T], what: str) -> Callable[[object], T]:
    """:func:`checked` for one ``kind``: a game's ``_match = checker(Match, "a Lodam
    match")``."""

    def check(value: object) -> T:
        return checked(value, kind, what)

    return check
