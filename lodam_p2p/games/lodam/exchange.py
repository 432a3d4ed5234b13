"""Lodam's hidden exchanges (RULES.md 6) as the game interface states them
(:class:`~lodam_p2p.games.interface.HiddenExchange`).

An offer puts a coat or card down face down; an accepting answer hands a card of the
same kind to the offerer alone; the exchange is void when both cards are of one suit,
and then each takes its own back. Everything here reads the
:class:`~lodam_p2p.games.lodam.PublicDeal` a table tracks; the replay of a finished deal is
:mod:`lodam_p2p.games.lodam.audit`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from lodam_p2p.games.interface import HiddenExchange
from lodam_p2p.games.kit.common import checked
from lodam_p2p.games.kit.deals import GameMatch
from lodam_p2p.games.kit.values import LoggedMove, Passage, PublicMove, Replayed
from lodam_p2p.games.lodam.audit import Replay
from lodam_p2p.games.lodam.cards import Card
from lodam_p2p.games.lodam.match import Match
from lodam_p2p.games.lodam.public import PublicDeal
from lodam_p2p.games.lodam.view import PlayerView, build_view, legal_actions_for

_NO = {"offer": "makes no offer", "answer": "declines", "challenge": "does not challenge",
       "declare": "does not declare"}


class LodamExchanges(HiddenExchange[PublicDeal, PlayerView]):
    """Offers, answers and their outcome; see the module docstring."""

    def awaiting(self, public: Any) -> str | None:
        p = _public(public)
        if p.is_over or p.awaiting is None:
            return None
        return p.awaiting.value

    def offerer(self, public: Any) -> int | None:
        offer = _public(public).pending_offer
        return None if offer is None else offer.offerer

    def exchanges_made(self, public: Any) -> int:
        return len(_public(public).exchanges)

    def traders(self, public: Any, index: int) -> tuple[int, int | None]:
        record = _public(public).exchanges[index]
        return record.offerer, record.acceptor

    def void(self, offered: Any, answered: Any) -> bool:
        """RULES.md 6: an exchange of two cards of one suit is void."""
        return bool(_card(offered).suit == _card(answered).suit)

    def turns_up(self, public: Any, card: Any) -> bool:
        """The first renounce turns the talon's top card as trump."""
        return _public(public).turns_trump(_card(card))

    def news(self, public: Any, told: int) -> list[tuple[int, str]]:
        """Each trick taken since ``told`` tricks: its taker and points."""
        said = []
        for number, trick in enumerate(_public(public).tricks[told:], told + 1):
            how = "swallows" if trick.swallowed else "takes"
            said.append((trick.winner, f"seat {trick.winner} {how} trick {number} "
                                       f"({trick.points} points)"))
        return said

    def move_text(self, public: Any, move: PublicMove) -> str:
        return f"seat {move.seat} {_text(_public(public), move)}"

    def seat_view(self, public: Any, seat: int, hand: Sequence[Any],
                  trades: Sequence[tuple[Any, Any] | None]) -> PlayerView:
        p = _public(public)
        view = build_view(p, seat, tuple(_card(c) for c in hand), (), ())
        exchanges = tuple(x if t is None else replace(x, given=t[0], received=t[1])
                          for x, t in zip(p.exchanges, trades, strict=True))
        view = replace(view, exchanges=exchanges)
        return replace(view, legal=tuple(legal_actions_for(view)))

    def audit(self, match: GameMatch, deck: Sequence[Any], *, masked: Mapping[int, Any],
              log: Sequence[LoggedMove], offers: Mapping[int, int | str],
              transfers: frozenset[tuple[int, int, int]]) -> Replayed:
        m = checked(match, Match, "a Lodam match")
        return Replay(m, [_card(c) for c in deck], {j: _card(c) for j, c in masked.items()},
                      offers, transfers).run(log)


def _text(public: PublicDeal, move: PublicMove) -> str:
    wire = move.wire
    args = wire.args
    if wire.kind == "play":
        turned = f" (trump turned: {move.turned})" if move.turned is not None else ""
        return f"plays {wire.card}{turned}"
    if wire.kind == "answer" and wire.passage is Passage.TO_ONE:
        outcome = "void (same suit)" if move.outcome and move.outcome[0] is True else "done"
        return f"accepts seat {public.exchanges[-1].offerer}'s offer: exchange {outcome}"
    if wire.kind == "swallow":
        return "swallows the trick" if args[0] else "leaves the trick to the trump"
    if wire.kind == "declare" and args[0]:
        return "declares out" + (f", challenging seat {args[1]}" if args[1] is not None else "")
    if wire.kind == "offer" and args[0] is not None:
        return f"offers a {args[0]}"
    if wire.kind == "challenge" and args[0] is not None:
        return f"challenges seat {args[0]}"
    return _NO.get(wire.kind, wire.kind)


def _public(public: object) -> PublicDeal:
    return checked(public, PublicDeal, "a Lodam public deal")


def _card(card: object) -> Card:
    return checked(card, Card, "a Lodam card")


#: Lodam's exchanges, as :attr:`LodamGame.exchanges <lodam_p2p.games.Game.exchanges>`.
EXCHANGES = LodamExchanges()
