"""One deal of a game without exchanges (Lorum) by the game's rules, as every peer follows it.

:class:`GameDeal` is a part of :class:`~lodam_p2p.session.gamehand.GameHand` (whose
module docstring tells how a deal is played over the wire), which owns it as
:attr:`GameHand.deal <lodam_p2p.session.gamehand.GameHand.deal>` and keeps the
fair-deal hand, the messages and the move being revealed. The deal keeps what the
game's rules say of it, the same at every peer: the game's plan and public part, the
seats dealt in (:attr:`GameDeal.order`), which deck positions each seat still holds,
the moves taken and the step, the steps at which a card's holder was awaited or
found silent, and when each seat opened its secrets. It decodes a move and applies it
to the public part (:meth:`GameDeal.apply`); given the cards the fair-deal hand has
opened to this seat, it names this seat's cards, view and positions.

It also holds the audit's checker (:meth:`GameDeal.check`), which the hand gives the
fair-deal hand to call with the opened deck: the replay of the full deal over the
logged moves, up to the fewest moves any seat had taken when it opened its secrets.
The first move the rules refuse, or the silent holder of the awaited card, is the
verdict; opening one's secrets before the end, when the table had not found a holder
silent, is an offence.

The deal never sees the fair-deal hand: what it needs of it comes in as arguments
(the positions opened to this seat, those revealed). Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lodam_p2p.fairdeal import Blame
from lodam_p2p.games import (
    DealPlan,
    Game,
    GameError,
    GameMatch,
    Holder,
    PublicMove,
    Turn,
    WireAction,
)
from lodam_p2p.session.handtypes import Blamed, Refused


def carries(plan: DealPlan) -> bool:
    """Whether a deal by ``plan`` is one of a deck that carries over: it leaves a stack
    for the next deal, or deals from the last one's (Lorum's short First-and-last)."""
    return bool(plan.talon) or not plan.fresh


@dataclass(slots=True)
class PendingMove:
    """A move whose card is being revealed."""

    seat: int
    kind: str
    args: tuple[Any, ...]
    position: int


class GameDeal:
    """One deal by the game's rules, as followed by ``seat`` (None: a watcher) among
    ``players`` seats (see the module docstring)."""

    def __init__(self, game: Game, match: GameMatch, players: int, seat: int | None) -> None:
        self.game, self.match, self.seat = game, match, seat
        self.plan = plan = game.deal_plan(match)
        self.public = game.public_start(match)
        #: dealt face down to everyone: the protocol deals nobody anything, and each play
        #: is revealed by every seat's share of the player's next position in dealt order
        self.blind = game.face_down(match)
        #: the seats dealt in, the dealer's left first: the fair-deal hand's order
        self.order = tuple((match.dealer + 1 + k) % players for k in range(players))
        self.holdings = {s: set(plan.positions_of(s)) for s in self.order}
        self.step = 0
        self.log: list[Any] = []  #: every move taken, the game's actions, for the audit
        self.full: Any = None  #: the full deal the audit replayed
        self.verdict: Blame | None = None
        #: the steps at which the table agreed (TIMEOUT votes) that a holder was silent
        self.silenced: set[int] = set()
        #: the steps at which the public part awaited a card's holder, not a seat
        self.holder_steps: set[int] = set()
        #: per seat, the moves it had taken when it opened its secrets (its NOTES); the
        #: audit replays the moves up to the fewest (every peer sees every NOTES)
        self.opened_at: dict[int, int] = {}
        self._note_turn()

    # --- whose move -------------------------------------------------------------------

    def turn(self) -> Turn:
        """Whose move the public part names: a seat, a card's holder, or nobody."""
        return self.game.turn(self.public)

    def _note_turn(self) -> None:
        if not self.public.is_over and isinstance(self.turn(), Holder):
            self.holder_steps.add(self.step)

    def next_position(self, seat: int) -> int | None:
        """Blind: the position ``seat`` plays next, the first of its dealt order left."""
        left = [p for p in self.plan.positions_of(seat) if p in self.holdings[seat]]
        return left[0] if left else None

    # --- moves ------------------------------------------------------------------------

    def decode(self, seat: int, kind: str, args: tuple[Any, ...], card: Any) -> Any:
        """``seat``'s move as the game's action: refused when it showed no card, an
        offence when its revealed card does not fit."""
        try:
            return self.game.decode_action(seat, WireAction(kind, args, card))
        except GameError as err:
            if card is None:
                raise Refused(str(err)) from None
            raise Blamed(Blame(seat, "move", str(err))) from None

    def apply(self, seat: int, action: Any, *, refuse: bool) -> None:
        """Advance the public part by ``seat``'s ``action``: refused (ignored) when it
        showed no card, an offence when its revealed card does not fit."""
        wire = self.game.encode_action(action)
        try:
            self.game.public_apply(self.public, PublicMove(seat, wire.seen_by_all()))
        except (self.game.illegal_action, ValueError) as err:
            reason = self.game.refusal_reason(err)
            if refuse:
                raise Refused(reason) from None
            raise Blamed(Blame(seat, "play", reason)) from None
        self.log.append(action)
        self.step += 1
        self._note_turn()

    def played(self, pending: PendingMove, card: Any) -> Any:
        """The move ``pending``, its card revealed as ``card``: applied, and the position
        no longer held unless the game keeps the card in hand; the game's action."""
        action = self.decode(pending.seat, pending.kind, pending.args, card)
        self.apply(pending.seat, action, refuse=False)
        if not self.game.keeps_card(self.game.encode_action(action)):
            self.holdings[pending.seat].discard(pending.position)
        return action

    # --- this seat's cards --------------------------------------------------------------

    def hand_cards(self, cards: Mapping[int, int]) -> tuple[Any, ...]:
        """This seat's current hand in pack order, ``cards`` being the deck indices the
        fair-deal hand opened to it (by position)."""
        if self.seat is None:
            return ()
        indices = sorted(cards[pos] for pos in self.holdings[self.seat] if pos in cards)
        return tuple(self.plan.pack[i] for i in indices)

    def view(self, cards: Mapping[int, int]) -> Any:
        """What this seat may know now: the public part and its own hand."""
        assert self.seat is not None
        return self.game.seat_view(self.public, self.seat, self.hand_cards(cards))

    def position_of(self, cards: Mapping[int, int], card: Any) -> int:
        """The position this seat holds ``card`` at (``cards`` as for :meth:`hand_cards`)."""
        assert self.seat is not None
        for position in self.holdings[self.seat]:
            if position in cards and self.plan.pack[cards[position]] == card:
                return position
        raise GameError(f"{card} is not in this seat's hand")

    # --- the audit ----------------------------------------------------------------------

    def all_played(self, revealed: Mapping[int, int]) -> bool:
        """Whether every position dealt is among the ``revealed`` ones."""
        return all(seat is None or j in revealed for j, seat in enumerate(self.plan.schedule))

    def played_deck(self, revealed: Mapping[int, int]) -> tuple[int, ...]:
        """A short deal's deck for its check: each dealt position's revealed card, the
        positions not dealt filled, in order, with the cards left (never opened)."""
        dealt = {j: revealed[j] for j, seat in enumerate(self.plan.schedule)
                 if seat is not None}
        rest = iter(sorted(set(range(len(self.plan.pack))) - set(dealt.values())))
        return tuple(dealt[j] if j in dealt else next(rest)
                     for j in range(len(self.plan.pack)))

    def check(self, indices: tuple[int, ...], masked: Mapping[int, int]) -> Blame | None:
        """The fair-deal audit's checker: replay the full deal over the logged moves."""
        cut = min(self.opened_at.values(), default=len(self.log))
        deck = tuple(self.plan.pack[i] for i in indices)
        replayed = self.game.replay(self.match, deck, self.log[:cut])
        self.full = replayed.deal
        error = replayed.error
        if error is not None:
            self.verdict = Blame(error.seat, error.offence, error.message[:160])
        elif not replayed.deal.is_over and not (cut in self.holder_steps
                                                and cut in self.silenced):
            first = min(s for s, step in self.opened_at.items() if step == cut)
            self.verdict = Blame(first, "early-audit", f"opened its secrets at step {cut}, "
                                 "before the end, when the table had not found a card's "
                                 "holder silent")
        elif not replayed.deal.is_over:
            seat = replayed.deal.to_act
            self.verdict = Blame(seat if seat is not None else 0, "silent-holder",
                                 f"held the card awaited at step {cut} and did not "
                                 "play it")
        return self.verdict
