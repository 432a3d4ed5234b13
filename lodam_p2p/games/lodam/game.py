"""Losing Lodam (RULES.md) behind the game interface: a thin adapter over the engine
beside it in this package (:mod:`~lodam_p2p.games.lodam.match`,
:mod:`~lodam_p2p.games.lodam.deal`, :mod:`~lodam_p2p.games.lodam.public` …). Every Lodam
fact a table needs — the seat range, the pack of the next deal, the round-robin deal and
its talon — is stated here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lodam_p2p.games.interface import Game
from lodam_p2p.games.kit.common import EngineDoors, OptionsOfType, checker, replayed
from lodam_p2p.games.kit.deals import GameDeal, GameMatch
from lodam_p2p.games.kit.values import (
    DealPlan,
    DealSummary,
    PublicMove,
    Replayed,
    SeatRange,
    Standings,
)
from lodam_p2p.games.lodam import codec
from lodam_p2p.games.lodam.actions import Action, Answer, IllegalAction, Offer, Play, Revoke
from lodam_p2p.games.lodam.cards import FULL_PACK, SHORT_PACK, Card
from lodam_p2p.games.lodam.deal import Deal
from lodam_p2p.games.lodam.exchange import EXCHANGES
from lodam_p2p.games.lodam.match import Match
from lodam_p2p.games.lodam.options import ExchangeRule, Options, RankOrder
from lodam_p2p.games.lodam.public import PublicDeal
from lodam_p2p.games.lodam.replay import replay_scenario
from lodam_p2p.games.lodam.states import CODES
from lodam_p2p.games.lodam.view import PlayerView

#: One line of help per option of RULES.md section 12 (``lodam rules show-options``).
OPTION_HELP = {
    "rank_order": f"order within a suit: {', '.join(o.value for o in RankOrder)}",
    "lives": "counters per player at the start (1 … 9); Winning Lodam: counters to win",
    "out_at": "points that put a player out (1 … 108)",
    "exchanges": f"when exchange windows open: {', '.join(e.value for e in ExchangeRule)}",
    "short_deck_at": "switch to the 32-card pack at this many players (0 off, 2 … 4)",
    "hand_size": "cards per hand (null: the table of RULES.md 4)",
    "declare_out": "players must declare out, and may challenge",
    "trump_memory": "the trump is shown only briefly; swallow asked after every renounce",
    "trump_show_seconds": "how long the turned trump card is shown (> 0)",
    "stake": "chips each player pays into the pot (≥ 0)",
    "winning": "Winning Lodam: gain counters instead of losing them",
}

_RULES_TEXT = """\
Losing Lodam (Willughby, c. 1670): 3 to 10 players, 3 counters each. Take as few loader
points as you can (A 11, T 10, K 3, Q 2, J 1): you must follow suit; the first renounce
turns the talon's top card as trump. Whoever reaches out_at points (31) loses a counter;
the last player holding counters wins. Before each trick a player may offer a coat
(K Q J) or a card (A T) in exchange. The full rules: RULES.md."""


class LodamGame(EngineDoors, OptionsOfType, Game[Options, Deal, Action, PlayerView, PublicDeal]):
    """Losing Lodam; see the module docstring."""

    name = "lodam"
    title = "Losing Lodam"
    #: RULES.md 3: 3 to 10 players start (a match plays on down to two).
    seats = SeatRange(3, 10)
    options_type = Options
    match_type = Match
    deal_type = Deal
    public_type = PublicDeal
    action_codec = codec
    noun = "Lodam"
    card_type = Card
    option_help = OPTION_HELP
    illegal_action = IllegalAction
    #: offers and answers pass cards face down (RULES.md 6)
    exchanges = EXCHANGES
    #: RULES.md 8: a proven revoke puts the offender out of the match
    puts_out = True
    #: the engine's move codes number the actions of the state API
    state_codes = CODES

    # -- the match ----------------------------------------------------------------------

    def put_out(self, match: GameMatch, seat: int) -> None:
        m = _match(match)
        if m.active[seat]:
            m.revoke(seat)

    def match_state(self, match: GameMatch) -> dict[str, Any]:
        """Counters, the next dealer, who is in, deals played, when each seat went out,
        whether the match is over and its winners."""
        m = _match(match)
        return {"lives": list(m.lives), "dealer": m.dealer, "active": list(m.active),
                "deals_played": m.deals_played, "eliminated_in": list(m.eliminated_in),
                "is_over": m.is_over, "winners": list(m.winners)}

    def restore_match(self, options: Any, players: int, state: object) -> Match:
        """The match :meth:`match_state` described; ``ValueError`` if a field is missing
        or does not fit (the seat lists must have ``players`` entries)."""
        if not isinstance(state, Mapping):
            raise ValueError("a Lodam match state is an object")
        saved = state
        try:
            lives = [int(v) for v in saved["lives"]]
            active = [bool(v) for v in saved["active"]]
            match = Match.resume(_options(options), lives, int(saved["dealer"]), active)
            match.deals_played = int(saved["deals_played"])
            match.eliminated_in = [None if v is None else int(v)
                                   for v in saved["eliminated_in"]]
            match.is_over = bool(saved["is_over"])
            match.winners = [int(v) for v in saved["winners"]]
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise ValueError(str(err)) from None
        if len(match.eliminated_in) != len(lives) or len(lives) != players:
            raise ValueError("seat counts differ")
        return match

    def deal_plan(self, match: GameMatch) -> DealPlan:
        """RULES.md 4: one card at a time from the eldest hand, the rest the talon, whose
        top is turned as trump at the first renounce."""
        m = _match(match)
        public = PublicDeal.start(m.options, m.dealer, m.lives, m.active)
        order, size = public.order, public.hand_size
        dealt = len(order) * size
        pack = self.pack(m)
        schedule = tuple(order[j % len(order)] if j < dealt else None
                         for j in range(len(pack)))
        return DealPlan(pack, schedule, tuple(range(dealt, len(pack))), (dealt,))

    def pack(self, match: GameMatch) -> tuple[Card, ...]:
        """The 52-card pack, or the 32-card one from ``short_deck_at`` players down."""
        return SHORT_PACK if _match(match).pack_size() == len(SHORT_PACK) else FULL_PACK

    def reshuffles(self, match: GameMatch) -> bool:
        """Every Lodam deal is shuffled anew."""
        return True

    def dealt_in(self, match: GameMatch) -> tuple[bool, ...]:
        return tuple(_match(match).active)

    def new_deal(self, match: GameMatch, deck: Sequence[Any]) -> Deal:
        return _match(match).new_deal(deck)

    def finish_deal(self, match: GameMatch, deal: GameDeal) -> DealSummary:
        result = _match(match).finish_deal(_deal(deal))
        change = result.counter_change
        return DealSummary(result.points, tuple(max(0, -c) for c in change),
                           tuple(max(0, c) for c in change), result.reason)

    def standings(self, match: GameMatch) -> Standings:
        """Winners first, then by counters held, then by who lasted longer; ranks by
        (deal of elimination, counters held), ties sharing their places."""
        m = _match(match)

        def lasted(seat: int) -> float:
            out = m.eliminated_in[seat]
            return math.inf if out is None else float(out)

        order = sorted(range(m.players), key=lambda s: (
            s not in m.winners, -m.lives[s], -lasted(s), s))
        keys = [(lasted(s), float(m.lives[s])) for s in range(m.players)]
        return Standings.ranked(m.winners, keys, m.lives, "counters", order)

    def payouts(self, match: GameMatch) -> tuple[int, ...]:
        """RULES.md 9: each paid ``stake``; the winners share the pot."""
        return tuple(_match(match).payouts())

    # -- the deal -----------------------------------------------------------------------

    def public_start(self, match: GameMatch) -> PublicDeal:
        m = _match(match)
        return PublicDeal.start(m.options, m.dealer, m.lives, m.active)

    def step(self, deal: GameDeal, action: Any) -> PublicMove:
        """The trump card is turned by the first renounce; an accepted exchange is
        announced void or done."""
        d = _deal(deal)
        turned = None
        if isinstance(action, Play) and d.public.turns_trump(action.card):
            turned = d.talon[0]
        d.apply(action)
        outcome: tuple[bool, ...] = ()
        if isinstance(action, Answer) and action.card is not None:
            outcome = (d.public.exchanges[-1].void,)
        return PublicMove(action.seat, codec.encode(action).seen_by_all(), turned, outcome)

    def hidden_cards(self, deal: GameDeal, seat: int) -> frozenset[Card]:
        """Other hands and the talon, less the turned trump card and the cards of the
        exchanges ``seat`` took part in (it saw both)."""
        d = _deal(deal)
        hidden = {c for other in range(d.players) if other != seat for c in d.hand(other)}
        hidden.update(d.talon)
        hidden.discard(d.trump_card)
        for record in d.exchanges:
            if seat in (record.offerer, record.acceptor):
                hidden.discard(record.offer)
                hidden.discard(record.accept)
        return frozenset(hidden)

    # -- actions ------------------------------------------------------------------------

    def public_action(self, action: Any) -> Action | None:
        """An offer or an accepting answer hides its card from the others."""
        if isinstance(action, Offer | Answer) and action.card is not None:
            return None
        return action  # type: ignore[no-any-return]

    # -- the audit ----------------------------------------------------------------------

    def replay(self, match: GameMatch, deck: Sequence[Any], actions: Iterable[Any]) -> Replayed:
        """Every action applied in turn; a proven revoke is a ``revoke``, any other
        refusal an ``illegal-action``."""
        return replayed(_match(match).new_deal(deck), actions, IllegalAction,
                        lambda err: "revoke" if isinstance(err, Revoke) else "illegal-action")

    def replay_scenario(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """The ``"game": "lodam"`` scripted deal of ``lodam rules replay``."""
        return replay_scenario(scenario)

    # -- the client shell ---------------------------------------------------------------

    def describe(self, view: Any) -> str:
        view = _view(view)
        trump = "not turned" if view.trump_card is None else str(view.trump_card)
        return (f"{self.title} · dealer seat {view.dealer} · trump {trump} · "
                f"trick {len(view.tricks) + 1}")

    def rules_text(self) -> str:
        return _RULES_TEXT


_options = checker(Options, "Lodam options")
_match = checker(Match, "a Lodam match")
_deal = checker(Deal, "a Lodam deal")
_view = checker(PlayerView, "a Lodam view")


#: The game value the ``lodam_p2p.games`` entry point names.
GAME = LodamGame()
