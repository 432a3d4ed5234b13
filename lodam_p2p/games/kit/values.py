"""The plain values of the game interface: seat ranges, deal plans, wire actions,
public moves, summaries and standings. Frozen, compared by value, free of any game.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from lodam_p2p.games.kit.deals import GameDeal

#: One plain value of a :class:`WireAction` argument (msgpack and JSON carry it as is).
WireValue: TypeAlias = int | bool | str | None
#: A game's card: a hashable value whose ``str`` is its notation (``"TD"``, ``"OH"``).
Card: TypeAlias = Hashable
#: A JSON object (a saved match, a replay scenario and its result): its values are read
#: and checked where they are used.
JsonObject: TypeAlias = dict[str, Any]


class GameError(ValueError):
    """Base of the interface's own errors; one line for people."""


class UnknownGameError(GameError):
    """A game name that no installed game provides."""


class ActionCodecError(GameError):
    """A wire action that is not an action of this game (a peer's bad message)."""


@dataclass(frozen=True, slots=True)
class SeatRange:
    """How many seats a table of the game may start with (both ends included)."""

    low: int
    high: int

    def __contains__(self, seats: object) -> bool:
        return isinstance(seats, int) and not isinstance(seats, bool) and (
            self.low <= seats <= self.high)

    def __str__(self) -> str:
        return f"{self.low} to {self.high}"

    def check(self, seats: int, game: str) -> None:
        """``GameError`` when ``seats`` is outside the range."""
        if seats not in self:
            raise GameError(f"a table of {game} seats {self} players, got {seats}")


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One table option for ``show-options`` and the lobby: name, default, help."""

    name: str
    default: object  #: the JSON value of the default
    help: str


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Where the cards of one deal go (see the module docstring).

    ``pack``: the cards that are shuffled, in canonical order. ``schedule[j]``: the seat
    that deck position ``j`` (top first) is dealt to, ``None`` when it is not dealt.
    ``talon``: the positions not dealt that stay face down, top first (Lodam's talon; the
    stack a carried deck passes on). ``turnable``: talon positions the deal may turn
    face up for everyone. ``set_aside``: cards put aside face up before the shuffle.

    ``fresh``: whether the deal starts from a new shuffle of the pack. When it is not
    (Lorum's short First-and-last), the deck of the previous deal carries over as it
    lies — still encrypted at a table, not shuffled again — and this deal deals on from
    it: ``spent`` are the positions earlier deals of that deck already dealt (neither
    dealt now nor talon), and ``new_deal`` takes that same deck again.
    """

    pack: tuple[Card, ...]
    schedule: tuple[int | None, ...]
    talon: tuple[int, ...] = ()
    turnable: tuple[int, ...] = ()
    set_aside: tuple[Card, ...] = ()
    fresh: bool = True
    spent: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.schedule) != len(self.pack):
            raise GameError("a deal plan needs one schedule entry per card of the pack")
        if self.spent and self.fresh:
            raise GameError("only a carried deck has positions dealt by earlier deals")
        if not all(0 <= j < len(self.pack) and self.schedule[j] is None for j in self.spent):
            raise GameError("a spent position is a position of the deck not dealt again")
        undealt = tuple(j for j, seat in enumerate(self.schedule)
                        if seat is None and j not in self.spent)
        if self.talon != undealt:
            raise GameError("the talon must be exactly the unscheduled positions not spent, "
                            "in order")
        if not set(self.turnable) <= set(self.talon):
            raise GameError("only talon positions can be turned")
        if set(self.set_aside) & set(self.pack):
            raise GameError("a set-aside card is not shuffled")

    def positions_of(self, seat: int) -> tuple[int, ...]:
        """The deck positions dealt to ``seat``, in dealing order."""
        return tuple(j for j, s in enumerate(self.schedule) if s == seat)

    def hands(self, deck: Sequence[Card]) -> dict[int, tuple[Card, ...]]:
        """Each seat's cards as dealt from ``deck`` (top first), by seat."""
        out: dict[int, list[Card]] = {}
        for position, seat in enumerate(self.schedule):
            if seat is not None:
                out.setdefault(seat, []).append(deck[position])
        return {seat: tuple(cards) for seat, cards in sorted(out.items())}


@dataclass(frozen=True, slots=True)
class Holder:
    """A public turn that names a card, not a seat: whoever holds ``card`` acts."""

    card: Card

    def __str__(self) -> str:
        return f"the holder of {self.card}"


#: Whose step it is, as the public part knows it: a seat, the holder of a card, or
#: ``None`` when the deal is over.
Turn: TypeAlias = int | Holder | None


class Passage(enum.Enum):
    """How the card of a :class:`WireAction` travels."""

    FACE_UP = "face_up"  #: shown to every seat (a card played or laid, an announcement)
    TO_ONE = "to_one"  #: handed privately to one seat (an exchange answer)
    FACE_DOWN = "face_down"  #: put down unseen, committed to, opened at the audit (an offer)


@dataclass(frozen=True, slots=True)
class WireAction:
    """An action as it travels: ``kind`` (the game's word), public ``args`` and at most
    one ``card`` with its :class:`Passage`. The seat is the sender's, never sent."""

    kind: str
    args: tuple[WireValue, ...] = ()
    card: Card | None = None
    passage: Passage | None = None

    def to_list(self) -> list[object]:
        """``[kind, [args…], card text or None]``: the JSON/msgpack form."""
        return [self.kind, list(self.args), None if self.card is None else str(self.card)]

    def seen_by_all(self) -> WireAction:
        """This action as the other seats see it: its card only if it travels face up
        (``passage`` still says that a card travelled)."""
        if self.card is None or self.passage is Passage.FACE_UP:
            return self
        return WireAction(self.kind, self.args, None, self.passage)


@dataclass(frozen=True, slots=True)
class PublicMove:
    """One step of a deal as every seat sees it (the public part is advanced by these).

    ``wire``: the action's :meth:`WireAction.seen_by_all` form. ``turned``: a talon card
    turned face up by this step (Lodam's trump at the first renounce). ``outcome``: public
    facts announced with it (Lodam: whether an accepted exchange was void).
    """

    seat: int
    wire: WireAction
    turned: Card | None = None
    outcome: tuple[WireValue, ...] = ()


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One public decision of a deal with hidden exchanges, as the table took it.

    ``kind`` is the action's wire kind; ``step`` the deal's step it was taken at; ``args``
    its public arguments, a card named by its deck position: ``play`` (position,),
    ``offer`` (kind or None,), ``answer`` (None,) for a decline or (the acceptor's
    position, the offerer's position, void) for an accepted exchange, and the wire
    arguments of a move without a card.
    """

    seat: int
    kind: str
    step: int
    args: tuple[WireValue, ...]


@dataclass(frozen=True, slots=True)
class DealSummary:
    """How a deal ended, in terms every layer understands.

    ``penalty`` and ``gain`` are per seat and never negative: counters lost and gained in
    Lodam; points (or beans) paid and received in Lorum. ``reason`` is one sentence.
    """

    points: tuple[int, ...]
    penalty: tuple[int, ...]
    gain: tuple[int, ...]
    reason: str
    #: The game's own record of the deal (Lorum: its ``DealResult``), for clients.
    record: object = None


@dataclass(frozen=True, slots=True)
class Standings:
    """Who stands where in a match (final once the match is over).

    ``order``: seats best first. ``ranks``: per seat, 1 = best, tied seats share the mean
    of their places. ``scores``: per seat, the game's running figure (Lodam counters held,
    Lorum penalty points), named by ``score_name``.
    """

    winners: tuple[int, ...]
    order: tuple[int, ...]
    ranks: tuple[float, ...]
    scores: tuple[int, ...]
    score_name: str

    @classmethod
    def ranked(cls, winners: Sequence[int], keys: Sequence[tuple[float, ...]],
               scores: Sequence[int], score_name: str,
               order: Sequence[int] | None = None) -> Standings:
        """The standings of a game that ranks its seats by ``keys`` (bigger is better,
        ties share their places, :func:`shared_ranks`); ``order`` (best first) defaults
        to the keys' order, a lower seat first among equals."""
        if order is None:
            order = sorted(range(len(keys)), key=lambda seat: (
                tuple(-key for key in keys[seat]), seat))
        return cls(tuple(winners), tuple(order), shared_ranks(keys), tuple(scores),
                   score_name)

    def with_leavers(self, left: Sequence[int], playing: Collection[int], *,
                     draw: bool = False) -> Standings:
        """These standings once the seats ``left`` (earliest first) have left the match
        or been put out of it: **leaving never pays**, in every game.

        Every seat that did not leave stands above every seat that did, whatever the
        scores; of two seats that left, the one that left later stands above the other
        (they are never tied). The winners are never a seat that left, while a seat of
        ``playing`` (the seats still in the match) is left: the game's own winners once
        its match is over, else the best placed seats still playing; in a ``draw``
        every seat still playing. The winners share the first place; the other seats
        that stayed keep their order and their ties; ``scores`` are the game's own.
        """
        gone = list(dict.fromkeys(seat for seat in left if 0 <= seat < len(self.order)))
        out = set(gone)
        still = sorted(seat for seat in set(playing)
                       if 0 <= seat < len(self.order) and seat not in out)
        winners = _staying_winners(self, still, out, draw=draw)
        placed = {seat: place for place, seat in enumerate(self.order)}
        stayed = sorted((seat for seat in self.order if seat not in out and seat not in winners),
                        key=lambda seat: (self.ranks[seat], placed[seat]))
        order = (*sorted(winners, key=placed.__getitem__), *stayed, *reversed(gone))
        keys = [(2.0, 0.0) if seat in winners else
                (0.0, float(gone.index(seat))) if seat in out else
                (1.0, -self.ranks[seat]) for seat in range(len(self.order))]
        return Standings(winners, order, shared_ranks(keys), self.scores, self.score_name)


@dataclass(frozen=True, slots=True)
class ReplayError:
    """The first logged action the rules refused: its index, its seat and why.
    ``offence`` is the game's word for it (``"revoke"``, ``"illegal-action"`` …)."""

    index: int
    seat: int
    offence: str
    message: str


@dataclass(frozen=True, slots=True)
class Replayed:
    """An audit replay: the deal as far as it went, actions applied, the first refusal."""

    deal: GameDeal
    applied: int
    error: ReplayError | None


def _staying_winners(standings: Standings, still: Sequence[int], out: set[int], *,
                     draw: bool) -> tuple[int, ...]:
    """The winners of :meth:`Standings.with_leavers`, in seat order."""
    if draw:
        return tuple(still)
    own = tuple(sorted(seat for seat in standings.winners if seat not in out))
    if own:
        return own
    # none of the game's winners stayed: the best placed seats still playing win, or,
    # where every seat still playing is one that left (a false host plays on to the
    # end), the best placed of the seats that stayed
    stayed = still or [seat for seat in range(len(standings.order)) if seat not in out]
    if not stayed:
        return ()
    best = min(standings.ranks[seat] for seat in stayed)
    return tuple(seat for seat in stayed if standings.ranks[seat] == best)


def shared_ranks(keys: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    """Rank per seat (1 = best) from keys where bigger is better; ties share places."""
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0.0] * len(keys)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[place]]:
            end += 1
        for position in range(place, end + 1):
            ranks[order[position]] = (place + end + 2) / 2
        place = end + 1
    return tuple(ranks)
