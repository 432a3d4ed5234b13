"""This seat's own decisions in a hand: its cards, its view, and the message for an action.

A mixin of :class:`~lodam_p2p.session.handplay.HandPlay`. The action goes through the
game's codec (:meth:`Game.encode_action <lodam_p2p.games.Game.encode_action>`), and its
card travels as the codec says: face up, it is played by naming its position and
revealing it; to one seat (an answer), its position is handed over by a private
transfer; face down (an offer), the message carries a salted commitment to the position
put down. The positions are this seat's current ones: after an exchange, those of its
re-mask.
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.fairdeal import Hand
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.games import Game, GameError, HiddenExchange, LoggedMove, Passage
from lodam_p2p.session.audit import offer_commitment
from lodam_p2p.session.movebody import DECISIONS, Tag
from lodam_p2p.session.wire import Body

#: The MOVE tag of each decision of a hand with exchanges, by the action's wire kind.
TAG_OF = {tag.value: tag for tag in DECISIONS}


class OwnMoves:
    """This seat's cards, view and actions (see the module docstring)."""

    game: Game
    exchanges: HiddenExchange
    table_id: bytes
    number: int
    seat: int | None
    me: int | None
    entropy: Entropy
    fair: Hand
    public: Any
    pack: tuple[Any, ...]
    holdings: dict[int, set[int]]
    step: int
    log: list[LoggedMove]
    my_offers: dict[int, tuple[int, bytes]]
    trades: list[tuple[Any, Any] | None]
    _offer_step: int
    _mine: Any

    def _flush(self) -> None:
        raise NotImplementedError

    def _move(self, tag: Tag, fields: tuple[object, ...], envelopes: list[bytes]) -> Body:
        raise NotImplementedError

    def hand_cards(self) -> tuple[Any, ...]:
        """This seat's current hand, in pack order."""
        if self.me is None:
            return ()
        indices = sorted(self.fair.cards[pos] for pos in self.holdings[self.me]
                         if pos in self.fair.cards)
        return tuple(self.pack[i] for i in indices)

    def view(self) -> Any:
        """What this seat may know now (never another seat's hidden card)."""
        assert self.seat is not None
        return self.exchanges.seat_view(self.public, self.seat, self.hand_cards(), self.trades)

    def act(self, action: Any, now: float) -> Body:
        """The message for this seat's decided ``action`` (checked legal by the caller)."""
        self._flush()
        self._mine = action
        wire = self.game.encode_action(action)
        tag = TAG_OF[wire.kind]
        if wire.card is None:
            if tag is Tag.OFFER:  # no offer: nothing committed to
                return self._move(tag, (*wire.args, None), [])
            if tag is Tag.ANSWER:  # a decline hands nothing over
                return self._move(tag, (None,), [])
            return self._move(tag, wire.args, [])
        position = self._position_of(wire.card)
        if wire.passage is Passage.FACE_DOWN:
            return self._commit(tag, wire.args, position)
        if wire.passage is Passage.TO_ONE:
            offerer = self.exchanges.offerer(self.public)
            assert offerer is not None
            self.fair.transfer(position, offerer, now)
        else:
            self.fair.reveal(position, now)
        return self._move(tag, (position,), self.fair.outgoing())

    def _commit(self, tag: Tag, args: tuple[object, ...], position: int) -> Body:
        salt = self.entropy(16)
        self.my_offers[self.step] = (position, salt)
        commitment = offer_commitment(self.table_id, self.number, self.seat or 0,
                                      step=self.step, position=position, salt=salt)
        return self._move(tag, (*args, commitment), [])

    def _position_of(self, card: Any) -> int:
        assert self.me is not None
        for position in self.holdings[self.me]:
            if self.pack[self.fair.cards[position]] == card:
                return position
        raise GameError(f"{card} is not in this seat's hand")

    def _my_trade(self, index: int) -> tuple[Any, Any] | None:
        offerer, acceptor = self.exchanges.traders(self.public, index)
        if self.me is None or self.me not in (offerer, acceptor):
            return None
        if acceptor is None:
            position = self.my_offers[self._offer_step][0]
            return self.pack[self.fair.cards[position]], None
        mine_pos, theirs_pos, _void = self.log[-1].args
        assert isinstance(mine_pos, int) and isinstance(theirs_pos, int)
        given, got = self.pack[self.fair.cards[mine_pos]], self.pack[self.fair.cards[theirs_pos]]
        return (got, given) if self.me == offerer else (given, got)
