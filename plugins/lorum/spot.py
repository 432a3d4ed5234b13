"""What a Lorum bot knows at a decision, as bit masks: the *spot*.

Both Lorum bots decide from a :class:`Spot`: the heuristic builds it from a seat's
:class:`~lodam_p2p.games.lorum.PlayerView` (:func:`spot_of_view`, with everything the
public record shows: cards gone, suits a seat has shown void, cards a Lorum pass proved
it did not hold), and the search builds it cheaply from a sampled full deal during its
rollouts (:func:`spot_of_deal`, without the inferences). Card masks use the engine's
card indices (``suit * 8 + rank``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lorum import (
    Action,
    Contract,
    Deal,
    Decision,
    Lay,
    Options,
    Play,
    PlayerView,
    PublicDeal,
)
from lodam_p2p.games.lorum.cards import HEARTS, OBERS, PACK_MASK, SUIT_MASK, mask_of

#: Contract codes, in round order (as the engine numbers them).
REDS, OBERS_, TRICKS, FIRST_LAST, FIFTH, RED_KING, QUARTET, LORUM = range(8)
CODE = {c: i for i, c in enumerate(Contract)}


@dataclass(slots=True)
class Spot:
    """One decision of one seat, reduced to masks and small ints."""

    code: int  #: the contract (``REDS`` … ``LORUM``)
    seat: int
    players: int
    options: Options
    awaiting: Decision | None
    legal: tuple[Action, ...]
    hand: int  #: own hand (0 when blind)
    gone: int  #: out of play: played, laid, set aside
    trick: tuple[tuple[int, int], ...]  #: the trick in progress: (seat, card index)
    tricks_played: int
    hand_size: int  #: cards dealt to each seat this deal
    leader: int
    fit: int  #: Lorum: the cards that fit the rows now
    start_rank: int  #: Lorum: the starting rank, -1 before the first lay
    excluded: list[int]  #: per seat, cards it is known not to hold
    hand_sizes: tuple[int, ...]

    @property
    def outstanding(self) -> int:
        """Cards still in play that this seat does not hold."""
        return PACK_MASK & ~self.gone & ~self.hand

    def legal_cards(self) -> dict[int, Action]:
        """Each legal card play or lay by card index."""
        return {a.card.index: a for a in self.legal if isinstance(a, Play | Lay)}


def spot_of_view(view: PlayerView) -> Spot:
    """The spot of ``view``'s decision, with every inference the public record allows."""
    played = len(view.played) - len(view.set_aside)
    hand_size = (sum(view.hand_sizes) + played) // max(view.players, 1)
    return Spot(
        code=CODE[view.contract], seat=view.seat, players=view.players,
        options=view.options, awaiting=view.awaiting, legal=view.legal,
        hand=mask_of(view.hand), gone=mask_of(view.played),
        trick=tuple((s, c.index) for s, c in view.current_trick),
        tricks_played=len(view.tricks), hand_size=hand_size, leader=view.leader,
        fit=mask_of(view.fits), start_rank=view.start_rank,
        excluded=exclusions(view), hand_sizes=view.hand_sizes,
    )


def spot_of_deal(deal: Deal, hand: int) -> Spot:
    """The spot of the seat to act in a full ``deal`` (its ``hand`` given as a mask), for
    rollouts: no inferences, the seats' actual hands stay unread."""
    p = deal.public
    seat = deal.to_act
    assert seat is not None
    return Spot(
        code=CODE[p.contract], seat=seat, players=p.players, options=p.options,
        awaiting=p.awaiting, legal=tuple(deal.legal_actions()), hand=hand, gone=p.gone_mask,
        trick=tuple((s, c.index) for s, c in p.current_trick),
        tricks_played=p.tricks_played, hand_size=p.hand_size, leader=p.leader,
        fit=p.fit_mask, start_rank=p.start_rank, excluded=[0] * p.players,
        hand_sizes=tuple(p.hand_sizes),
    )


def exclusions(view: PlayerView) -> list[int]:
    """Per seat, the cards the public record proves it does not hold now.

    Trick contracts: a seat that did not follow suit is void in it; in the first trick
    of ``reds`` (``obers``) a heart (an Ober) led or discarded proves a hand of nothing
    else, and an Ober played to its suit proves it was blank. Lorum: a pass proves the
    seat held none of the cards that fit then (and the rows only grow, so none of them
    can come back to it)."""
    out = [0] * view.players
    if view.contract is Contract.LORUM:
        _lorum_exclusions(view, out)
        return out
    if view.contract is Contract.QUARTET or (view.options.red_king_blind and (
        view.contract is Contract.RED_KING
    )):
        return out  # no duty to follow: nothing is proved
    code = CODE[view.contract]
    tricks = [t.cards for t in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for number, cards in enumerate(tricks):
        led = cards[0][1].suit
        for position, (seat, card) in enumerate(cards):
            if position and card.suit != led:
                out[seat] |= SUIT_MASK[led]
            if number == 0:
                out[seat] |= _first_trick_proof(code, card.index, position == 0,
                                                card.suit == led, SUIT_MASK[led])
    return out


def _first_trick_proof(code: int, index: int, leads: bool, follows: bool, led: int) -> int:
    """Cards a first-trick play proves its seat did not hold (first-trick restrictions)."""
    bit = 1 << index
    if code == REDS and bit & HEARTS and (leads or not follows):
        return PACK_MASK & ~HEARTS
    if code == OBERS_ and bit & OBERS:
        if leads or not follows:
            return PACK_MASK & ~OBERS
        return led  # an Ober followed to its suit only when blank
    return 0


def _lorum_exclusions(view: PlayerView, out: list[int]) -> None:
    public = PublicDeal.start(view.options, view.contract, view.players, view.dealer,
                              (sum(view.hand_sizes) + len(view.played)
                               - len(view.set_aside)) // max(view.players, 1))
    for seat, card in view.lays:
        if seat is None:
            continue
        if card is None:
            out[seat] |= public.fit_mask
            public.pass_turn(seat)
        else:
            public.lay(seat, card)
