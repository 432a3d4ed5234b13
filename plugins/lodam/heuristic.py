"""The ``heuristic`` bot: a card player with rules of thumb, no search.

- **Plays** the card of least expected cost (:mod:`plugins.lodam.heuristic_cards`): it ducks
  under the card winning the trick, sheds loaders onto tricks another seat must take
  (most gladly onto a seat they push to ``out_at``), leads low from suits where others
  still hold stronger cards, counts voids and the trump, and takes a trick only when
  it is cheap and keeps it clear of ``out_at``.
- **Exchanges**: offers the card or coat it most wants rid of (an unguarded ace or ten,
  a lone coat whose loss leaves it void) when that is worth more than the unknown card
  that would come back; accepts an offer when its own worst card of that kind is
  worse than what it expects to receive.
- **Swallows** a trick only when it holds no points and the lead is welcome.
- **Declares out** (option ``declare_out``) only with a challenge that will stick: a
  seat that holds ``out_at`` or more; as an eliminated watcher it challenges such a seat.

Bot options: ``heuristic.risk`` (weight of points taken, default 3.0) and
``heuristic.exchanges`` (use exchanges at all, default true).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games.lodam import (
    Action,
    Answer,
    Card,
    Challenge,
    Decision,
    Declare,
    Kind,
    Offer,
    Play,
    PlayerView,
    Swallow,
)
from .heuristic_cards import Reading

#: Least expected gain that makes an exchange worth offering / accepting.
OFFER_MARGIN = 1.0
ACCEPT_MARGIN = 1.5
#: Weight of points taken against the worth of cards kept or shed. Measured: 3.0 beats
#: 1.0 clearly from the same seat among heuristic bots (win share 0.75 against 0.25 over
#: 200 paired matches) and loses a third as many counters per deal against random bots;
#: 5.0 is no better than 3.0.
DEFAULT_RISK = 3.0
#: Worth of a void (a suit to shed loaders on when it is led).
VOID_WORTH = 3.0


class HeuristicBot:
    """Rules of thumb for every decision of RULES.md (see the module docstring)."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.seat = seat
        self._rng = random.Random(seed)  # only breaks exact ties
        self.risk = float(options.get("risk", DEFAULT_RISK))  # type: ignore[arg-type]
        self.use_exchanges = bool(options.get("exchanges", True))

    def decide(self, view: PlayerView) -> Action:
        """The answer for the decision ``view`` awaits."""
        decision = view.awaiting
        if decision is Decision.PLAY:
            return self._play(view)
        if decision is Decision.OFFER:
            return self._offer(view)
        if decision is Decision.ANSWER:
            return self._answer(view)
        if decision is Decision.SWALLOW:
            return self._swallow(view)
        if decision is Decision.DECLARE:
            return self._declare(view)
        return self._challenge(view)

    # -- trick play ---------------------------------------------------------------------

    def _play(self, view: PlayerView) -> Action:
        reading = Reading.of(view, self.risk)
        plays = [a for a in view.legal if isinstance(a, Play)]
        scored = [(reading.card_cost(a.card), self._rng.random(), a) for a in plays]
        return min(scored, key=lambda item: (round(item[0], 6), item[1]))[2]

    # -- exchanges --------------------------------------------------------------------

    def _offer(self, view: PlayerView) -> Action:
        return self._best_trade(view, Offer(view.seat, None), OFFER_MARGIN)

    def _answer(self, view: PlayerView) -> Action:
        return self._best_trade(view, Answer(view.seat, None), ACCEPT_MARGIN)

    def _best_trade(self, view: PlayerView, default: Offer | Answer, margin: float) -> Action:
        """The legal offer (or acceptance) whose card gains most by a trade, if any gains
        more than ``margin``; else ``default`` (no offer, or decline)."""
        best: Action = default
        if not self.use_exchanges:
            return best
        reading = Reading.of(view, self.risk)
        for action in view.legal:
            if isinstance(action, (Offer, Answer)) and type(action) is type(default) \
                    and action.card is not None:
                gain = self._trade_gain(action.card, reading)
                if gain > margin:
                    best, margin = action, gain
        return best

    def _trade_gain(self, card: Card, reading: Reading) -> float:
        """Expected gain of trading ``card`` for an unseen card of its kind."""
        hand = reading.view.hand
        suits = {c.suit for c in hand}
        lone = sum(1 for c in hand if c.suit == card.suit) == 1
        keep = reading.liability(card) + (VOID_WORTH if lone else 0.0)
        kind: Kind | None = card.kind
        incoming = [
            c for c in reading.know.unseen if c.kind is kind and c.suit != card.suit
        ]
        if not incoming:
            return 0.0
        worth = sum(
            reading.liability(c) + (VOID_WORTH if c.suit not in suits else 0.0)
            for c in incoming
        ) / len(incoming)
        return keep - worth

    # -- swallowing and declaring -----------------------------------------------------

    def _swallow(self, view: PlayerView) -> Action:
        points = sum(card.points for _seat, card in view.current_trick)
        if points > 0 or not view.hand:
            return Swallow(view.seat, False)
        reading = Reading.of(view, self.risk)
        safe_lead = any(reading.liability(card) < 0.5 for card in view.hand)
        return Swallow(view.seat, safe_lead)

    def _declare(self, view: PlayerView) -> Action:
        out_at = view.options.out_at
        targets = [
            a for a in view.legal
            if isinstance(a, Declare) and a.out and a.challenge is not None
            and view.points[a.challenge] >= out_at
        ]
        if targets:
            return max(targets, key=lambda a: view.points[a.challenge or 0])
        return Declare(view.seat, False)

    def _challenge(self, view: PlayerView) -> Action:
        out_at = view.options.out_at
        targets = [
            a for a in view.legal
            if isinstance(a, Challenge) and a.target is not None
            and view.points[a.target] >= out_at
        ]
        if targets:
            return max(targets, key=lambda a: view.points[a.target or 0])
        return Challenge(view.seat, None)


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide the ``heuristic`` bot."""
    return [
        BotType(
            "heuristic",
            "rules of thumb: ducks, sheds loaders, counts voids, keeps clear of out_at",
            HeuristicBot,
            options=(
                BotOption("risk", DEFAULT_RISK, "weight of points taken (higher: more careful)"),
                BotOption("exchanges", True, "offer and accept exchanges"),
            ),
            games=("lodam",),
        )
    ]
