"""Lorum (LORUM.md) behind the game interface: a thin adapter over the engine of this
package. Every Lorum fact a table needs — the seat range, the pack with ``7S 8S`` set
aside for three, the deal plan and the short First-and-last's carried stack — is stated
here, from the engine's own values.

A deal made for a table steps every move, the ones without a choice too (a Quartet run
card, a Lorum pass, a blind play): at a table each is a message from the seat that
makes it, so the deal offers it as a decision with one legal action (``auto=False``),
and the public part and the audit replay follow the very same moves. Set-aside cards
are laid by the deal itself: they belong to nobody.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from lodam_p2p.games.interface import Game
from lodam_p2p.games.kit.common import EngineDoors, OptionsOfType, checker
from lodam_p2p.games.kit.deals import GameDeal, GameMatch
from lodam_p2p.games.kit.values import (
    DealPlan,
    DealSummary,
    PublicMove,
    Replayed,
    ReplayError,
    SeatRange,
    Standings,
    WireAction,
)
from lodam_p2p.games.lorum import codec, saved
from lodam_p2p.games.lorum.actions import (
    Action,
    Announce,
    IllegalAction,
    Pass,
    Play,
    RulesError,
)
from lodam_p2p.games.lorum.cards import PACK_MASK, Card, cards_of, mask_of
from lodam_p2p.games.lorum.deal import Deal, first_breach
from lodam_p2p.games.lorum.match import Match
from lodam_p2p.games.lorum.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Contract,
    Options,
    Scoring,
)
from lodam_p2p.games.lorum.plan import DealPlan as EnginePlan
from lodam_p2p.games.lorum.public import PublicDeal
from lodam_p2p.games.lorum.records import DealResult
from lodam_p2p.games.lorum.replay import replay_scenario
from lodam_p2p.games.lorum.states import CODES
from lodam_p2p.games.lorum.view import PlayerView

#: One line of help per option of LORUM.md section 9 (``lodam rules show-options``).
OPTION_HELP = {
    "rounds": "rounds in a match (≥ 1); a round plays every contract once per dealer",
    "contracts": "contracts to play, kept in round order (k=v: a comma list)",
    "scoring": "points (lowest total wins) or beans (pot and pfennigs)",
    "first_last_points": "points of the first and of the last trick (4 or 5)",
    "first_last_short": "first_last with two cards each; the stack passes on unshuffled",
    "fifth_trick": "the scoring trick of fifth: 5 (8 points) or 6 (5 points)",
    "red_king_blind": "red_king played blind: each plays their next card unseen",
    "lorum_start": "rows start with any rank (wrapping A to 7) or with an Unter",
    "lorum_play_on": "the Lorum deal goes on after the first player is out",
    "breach_points": "penalty for a proven breach (≥ 0)",
}

#: The contracts by their names for people.
CONTRACT_TITLES = {
    Contract.REDS: "Reds", Contract.OBERS: "Obers", Contract.TRICKS: "Tricks",
    Contract.FIRST_LAST: "First and last", Contract.FIFTH: "Fifth trick",
    Contract.RED_KING: "Red King", Contract.QUARTET: "Quartet", Contract.LORUM: "Lorum",
}

_RULES_TEXT = """\
Lorum (German pack of 32, 3 or 4 players): eight contracts in turn, each dealt once by
every player — Reds, Obers, Tricks, First and last, Fifth trick, Red King (penalties for
what you take in tricks; follow suit, no trumps), Quartet (runs of four in a suit) and
Lorum (rows from a starting rank). Every point is a penalty: the lowest total wins (with
beans, the most beans). With three players 7S 8S are set aside face up. The full rules:
LORUM.md."""


class LorumGame(EngineDoors, OptionsOfType, Game[Options, Deal, Action, PlayerView, PublicDeal]):
    """Lorum; see the module docstring."""

    name = "lorum"
    title = "Lorum"
    #: LORUM.md 2: four players, three as a variant.
    seats = SeatRange(MIN_PLAYERS, MAX_PLAYERS)
    options_type = Options
    match_type = Match
    deal_type = Deal
    public_type = PublicDeal
    action_codec = codec
    noun = "Lorum"
    card_type = Card
    option_help = OPTION_HELP
    illegal_action = IllegalAction
    #: plays, lays, passes and the Red King's answers, numbered for the state API
    state_codes = CODES

    # -- the match ----------------------------------------------------------------------

    def match_state(self, match: GameMatch) -> dict[str, Any]:
        """See :mod:`lodam_p2p.games.lorum.saved`."""
        return saved.match_state(_match(match))

    def restore_match(self, options: Any, players: int, state: object) -> Match:
        """See :mod:`lodam_p2p.games.lorum.saved`."""
        self.seats.check(players, self.title)
        return saved.match_from_state(_options(options), players, state)

    def deal_plan(self, match: GameMatch) -> DealPlan:
        """LORUM.md 2: one card at a time from the eldest hand, the whole deck (with
        ``7S 8S`` set aside for three); the short First-and-last deals two each and
        passes the rest of the deck on, unshuffled, to the next deal."""
        return _table_plan(_match(match).plan())

    def pack(self, match: GameMatch) -> tuple[Card, ...]:
        """All 32 cards, or the 30 without ``7S 8S`` for three players."""
        return _match(match).plan().pack

    def reshuffles(self, match: GameMatch) -> bool:
        """Not when a short First-and-last deals on from the stack left by the last deal."""
        return _match(match).plan().fresh

    def dealt_in(self, match: GameMatch) -> tuple[bool, ...]:
        return (True,) * _match(match).players

    def new_deal(self, match: GameMatch, deck: Sequence[Any]) -> Deal:
        return _match(match).new_deal(deck, auto=False)

    def finish_deal(self, match: GameMatch, deal: GameDeal) -> DealSummary:
        """Points are penalties paid; with beans, the beans each seat paid or received
        (pfennigs at 20)."""
        m, d = _match(match), _deal(deal)
        before = m.purse.worth()
        dealer = m.dealer
        result = m.finish_deal(d)
        if m.options.scoring is Scoring.BEANS:
            change = [a - b for a, b in zip(m.purse.worth(), before, strict=True)]
            penalty = tuple(max(0, -c) for c in change)
            gain = tuple(max(0, c) for c in change)
        else:
            penalty, gain = result.points, (0,) * m.players
        return DealSummary(result.points, penalty, gain, _reason(result, dealer), result)

    def breach(self, match: GameMatch, seat: int) -> DealSummary:
        """LORUM.md 7: the deal is void; only ``seat`` scores, ``breach_points`` (beans:
        into the pot); the same dealer deals the same contract again."""
        m = _match(match)
        before = m.purse.worth()
        contract = m.contract
        m.breach(seat)
        points = tuple(m.options.breach_points if s == seat else 0 for s in range(m.players))
        if m.options.scoring is Scoring.BEANS:
            change = [a - b for a, b in zip(m.purse.worth(), before, strict=True)]
            penalty = tuple(max(0, -c) for c in change)
            gain = tuple(max(0, c) for c in change)
        else:
            penalty, gain = points, (0,) * m.players
        reason = (f"{CONTRACT_TITLES[contract]} dealt by seat {m.dealer} is void: seat {seat} "
                  f"broke the rules and scores {m.options.breach_points}; the same dealer "
                  "deals it again.")
        return DealSummary(points, penalty, gain, reason)

    def standings(self, match: GameMatch) -> Standings:
        """Points: the lowest total first. Beans: the most beans (pfennigs at 20) first.
        Ties share their places, and the win."""
        m = _match(match)
        if m.options.scoring is Scoring.BEANS:
            scores, name = tuple(m.purse.worth()), "beans"
            keys = [(float(s),) for s in scores]
        else:
            scores, name = tuple(m.totals), "points"
            keys = [(-float(s),) for s in scores]
        return Standings.ranked(m.winners, keys, scores, name)

    def payouts(self, match: GameMatch) -> tuple[int, ...]:
        """Lorum plays for no stakes beyond its beans."""
        return (0,) * _match(match).players

    # -- the deal -----------------------------------------------------------------------

    def public_start(self, match: GameMatch) -> PublicDeal:
        m = _match(match)
        return PublicDeal.start(m.options, m.contract, m.players, m.dealer,
                                m.plan().hand_size)

    def step(self, deal: GameDeal, action: Any) -> PublicMove:
        """Every Lorum move is public as it is: its card is laid face up."""
        wire = codec.encode(action)
        _deal(deal).apply(action)
        return PublicMove(action.seat, wire.seen_by_all())

    def hidden_cards(self, deal: GameDeal, seat: int) -> frozenset[Card]:
        """Every card still in play but ``seat``'s own — and under ``red_king_blind`` its
        own too, but for the card it is turning now."""
        d = _deal(deal)
        p = d.public
        hidden = PACK_MASK & ~p.gone_mask
        if not p.blind:
            hidden &= ~mask_of(d.hand(seat))
        elif d.to_act == seat:
            hidden &= ~mask_of(a.card for a in d.legal_actions() if isinstance(a, Play))
        return frozenset(cards_of(hidden))

    def seat_view(self, public: Any, seat: int, hand: Sequence[Any]) -> PlayerView:
        """The seat's view from the public part and its own hand: the other hands are
        filled with the unseen cards in index order, which no part of a view shows (its
        legal actions and turn depend on its own hand alone)."""
        p = _public(public)
        own = () if p.blind else tuple(hand)
        unseen = iter(cards_of(PACK_MASK & ~p.gone_mask & ~mask_of(own)))
        hands = [own if s == seat and not p.blind
                 else tuple(next(unseen) for _ in range(p.hand_sizes[s]))
                 for s in range(p.players)]
        view = Deal.from_public(p, hands, auto=False).view(seat)
        # blind: nobody knows the card a seat turns next, and nobody chooses it
        return dataclasses.replace(view, legal=(), to_act=p.to_act) if p.blind else view

    def face_down(self, match: GameMatch) -> bool:
        """The blind Red King (``red_king_blind``)."""
        m = _match(match)
        return m.contract is Contract.RED_KING and m.options.red_king_blind

    def keeps_card(self, wire: WireAction) -> bool:
        """The Red King announcement shows ``KH``; it is played later from the hand."""
        return wire.kind == "announce"

    # -- actions ------------------------------------------------------------------------

    def public_action(self, action: Any) -> Action:
        """Nothing in Lorum is hidden once done: cards are laid face up, a pass shows none."""
        return action  # type: ignore[no-any-return]

    # -- the audit ----------------------------------------------------------------------

    def replay(self, match: GameMatch, deck: Sequence[Any], actions: Iterable[Any]) -> Replayed:
        """The audit (LORUM.md 7) by :func:`first_breach`: the first action the opened
        hands refuse, with its offence — ``illegal-action`` when the table could see it at
        once, else the breach (``revoke``, ``first-trick``, ``false-pass``,
        ``card-not-held``, ``blind-order``, ``false-announcement``). A log that stops
        short is no error here: ``deal.to_act`` then names the seat awaited (the holder
        of a run card that stayed silent, as the opened deck shows)."""
        m = _match(match)
        deal = Deal.start(m.options, m.contract, m.dealer, deck, players=m.players,
                          plan=m.plan(), auto=False)
        counted = _Counted(actions)
        refused = first_breach(deal, counted)
        if refused is None or not isinstance(refused.action, Action):  # None: no move
            return Replayed(deal, counted.applied, None)
        # a refused action leaves the deal as it was: judge it there
        offence = _offence(deal, refused.action)
        error = ReplayError(counted.applied, refused.seat, offence, str(refused))
        return Replayed(deal, counted.applied, error)

    def replay_scenario(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """The ``"game": "lorum"`` scripted deal of ``lodam rules replay``."""
        return replay_scenario(scenario)

    # -- the client shell ---------------------------------------------------------------

    def describe(self, view: Any) -> str:
        view = _view(view)
        head = f"{self.title} · {CONTRACT_TITLES[view.contract]} · dealer seat {view.dealer}"
        if view.contract is Contract.LORUM:
            laid = sum(1 for _seat, card in view.lays if card is not None)
            return f"{head} · {laid} cards in {len(view.rows)} rows"
        if view.contract is Contract.QUARTET:
            run = (f"run goes on with {view.awaiting_card}" if view.awaiting_card
                   else "a new run is led")
            return f"{head} · {run}"
        announced = " · KH announced" if view.announced else ""
        return f"{head} · trick {len(view.tricks) + 1}{announced}"

    def rules_text(self) -> str:
        return _RULES_TEXT


class _Counted:
    """The logged actions, counting those the audit took without refusing."""

    def __init__(self, actions: Iterable[Any]) -> None:
        self.actions = actions
        self.applied = 0

    def __iter__(self) -> Iterator[Any]:
        for action in self.actions:
            yield action
            self.applied += 1  # resumed only once the deal took it


def _offence(deal: Deal, action: Action) -> str:
    """The name of the offence ``action`` commits in ``deal`` (which refuses it)."""
    try:
        deal.public.copy().apply_event(action)
    except RulesError:
        return "illegal-action"  # the public part refuses it: everyone saw it at once
    if isinstance(action, Pass):
        return "false-pass"
    if isinstance(action, Announce):
        return "false-announcement"
    hand = deal.hand(action.seat)
    if action.card not in hand:
        return "card-not-held"
    if deal.public.blind:
        return "blind-order"
    led = deal.public.led_suit
    if led is not None and action.card.suit != led and any(c.suit == led for c in hand):
        return "revoke"
    return "first-trick"


def _reason(result: DealResult, dealer: int) -> str:
    """One sentence on how the deal ended."""
    points = ", ".join(f"seat {s} {p}" for s, p in enumerate(result.points))
    text = f"{CONTRACT_TITLES[result.contract]} dealt by seat {dealer}: {points} points"
    if result.out:
        text += f"; seat {result.out[0]} went out first"
    if result.announced:
        text += "; the red king was announced"
    return text + "."


@functools.lru_cache(maxsize=256)
def _table_plan(plan: EnginePlan) -> DealPlan:
    """The interface's plan of an engine plan (both are values: built once each)."""
    schedule: list[int | None] = [None] * plan.deck_size
    for seat, positions in enumerate(plan.hands):
        for position in positions:
            schedule[position] = seat
    start = min(min(positions) for positions in plan.hands)
    return DealPlan(plan.pack, tuple(schedule), plan.stack, (), plan.set_aside,
                    plan.fresh, tuple(range(start)))


_options = checker(Options, "Lorum options")
_match = checker(Match, "a Lorum match")
_deal = checker(Deal, "a Lorum deal")
_public = checker(PublicDeal, "a Lorum public deal")
_view = checker(PlayerView, "a Lorum view")


#: The game value the ``lodam_p2p.games`` entry point names.
GAME = LorumGame()
