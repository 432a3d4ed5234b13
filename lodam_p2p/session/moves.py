"""This seat's own decisions in a hand: its cards, its view, and the message for an action.

A part of :class:`~lodam_p2p.session.handplay.HandPlay`, which owns it; it keeps what
only this seat knows of its moves (its offers' positions and salts, the cards of its
trades, the action it just decided). The action goes through the game's codec
(:meth:`Game.encode_action <lodam_p2p.games.Game.encode_action>`), and its card travels
as the codec says: face up, it is played by naming its position and revealing it; to
one seat (an answer), its position is handed over by a private transfer; face down (an
offer), the message carries a salted commitment to the position put down. The
positions are this seat's current ones: after an exchange, those of its re-mask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lodam_p2p.games import GameError, Passage
from lodam_p2p.session.audit import offer_commitment
from lodam_p2p.session.movebody import DECISIONS, Tag
from lodam_p2p.session.wire import Body

if TYPE_CHECKING:
    from lodam_p2p.session.handplay import HandPlay

#: The MOVE tag of each decision of a hand with exchanges, by the action's wire kind.
TAG_OF = {tag.value: tag for tag in DECISIONS}


class OwnMoves:
    """This seat's cards, view and actions in ``hand`` (see the module docstring)."""

    def __init__(self, hand: HandPlay) -> None:
        self.hand = hand
        #: this seat's offers: by the offer's step, the position put down and its salt
        self.my_offers: dict[int, tuple[int, bytes]] = {}
        #: each exchange of the hand, in order: this seat's (given, got) cards, or None
        #: where it did not trade
        self.trades: list[tuple[Any, Any] | None] = []
        #: the action this seat decided, until the hand takes it (what it shows itself)
        self.mine: Any = None

    def hand_cards(self) -> tuple[Any, ...]:
        """This seat's current hand, in pack order."""
        hand = self.hand
        if hand.me is None:
            return ()
        indices = sorted(hand.fair.cards[pos] for pos in hand.holdings[hand.me]
                         if pos in hand.fair.cards)
        return tuple(hand.pack[i] for i in indices)

    def view(self) -> Any:
        """What this seat may know now (never another seat's hidden card)."""
        hand = self.hand
        assert hand.seat is not None
        return hand.exchanges.seat_view(hand.public, hand.seat, self.hand_cards(), self.trades)

    def act(self, action: Any, now: float) -> Body:
        """The message for this seat's decided ``action`` (checked legal by the caller)."""
        hand = self.hand
        hand.flush()
        self.mine = action
        wire = hand.game.encode_action(action)
        tag = TAG_OF[wire.kind]
        if wire.card is None:
            if tag is Tag.OFFER:  # no offer: nothing committed to
                return hand.move_body(tag, (*wire.args, None), [])
            if tag is Tag.ANSWER:  # a decline hands nothing over
                return hand.move_body(tag, (None,), [])
            return hand.move_body(tag, wire.args, [])
        position = self._position_of(wire.card)
        if wire.passage is Passage.FACE_DOWN:
            return self._commit(tag, wire.args, position)
        if wire.passage is Passage.TO_ONE:
            offerer = hand.exchanges.offerer(hand.public)
            assert offerer is not None
            hand.fair.transfer(position, offerer, now)
        else:
            hand.fair.reveal(position, now)
        return hand.move_body(tag, (position,), hand.fair.outgoing())

    def _commit(self, tag: Tag, args: tuple[object, ...], position: int) -> Body:
        hand = self.hand
        salt = hand.entropy(16)
        self.my_offers[hand.step] = (position, salt)
        commitment = offer_commitment(hand.table_id, hand.number, hand.seat or 0,
                                      step=hand.step, position=position, salt=salt)
        return hand.move_body(tag, (*args, commitment), [])

    def _position_of(self, card: Any) -> int:
        hand = self.hand
        assert hand.me is not None
        for position in hand.holdings[hand.me]:
            if hand.pack[hand.fair.cards[position]] == card:
                return position
        raise GameError(f"{card} is not in this seat's hand")

    def note_trades(self, made: int) -> None:
        """Keep this seat's part of each exchange up to the ``made`` the deal counts."""
        while len(self.trades) < made:
            self.trades.append(self._my_trade(len(self.trades)))

    def _my_trade(self, index: int) -> tuple[Any, Any] | None:
        hand = self.hand
        offerer, acceptor = hand.exchanges.traders(hand.public, index)
        if hand.me is None or hand.me not in (offerer, acceptor):
            return None
        if acceptor is None:
            position = self.my_offers[hand.trading.offer_step][0]
            return hand.pack[hand.fair.cards[position]], None
        mine_pos, theirs_pos, _void = hand.log[-1].args
        assert isinstance(mine_pos, int) and isinstance(theirs_pos, int)
        given, got = (hand.pack[hand.fair.cards[mine_pos]],
                      hand.pack[hand.fair.cards[theirs_pos]])
        return (got, given) if hand.me == offerer else (given, got)
