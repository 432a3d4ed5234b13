"""The match: contracts in order, the passing of the deal, scores and standings.

LORUM.md 3, 7 and 8. A round plays each chosen contract ``n`` times in a row (once per
dealer); the deal passes to the left after every deal, across contracts. A proven breach
(:meth:`Match.breach`) voids the deal: only the offender scores, ``breach_points``, and
the same dealer deals the same contract again. Under ``first_last_short`` the stack left
by a deal passes to the next dealer unshuffled: :meth:`Match.plan` says whether the next
deal needs a new shuffle (``plan.fresh``) and which positions it takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.games.lorum.actions import MalformedInput, RulesError
from lodam_p2p.games.lorum.beans import Purse, pay_into_pot, settle
from lodam_p2p.games.lorum.cards import Card
from lodam_p2p.games.lorum.deal import Deal
from lodam_p2p.games.lorum.options import Contract, Options, Scoring
from lodam_p2p.games.lorum.plan import (
    DealPlan,
    check_deck,
    check_table,
    deal_plan,
    eldest_of,
    stack_holds_a_deal,
)
from lodam_p2p.games.lorum.records import DealResult


@dataclass(frozen=True, slots=True)
class Standings:
    """Where the match stands. Points: penalty totals (lowest wins). Beans: each
    player's beans and pfennigs, and the pot's (most beans, pfennigs at 20, win)."""

    scoring: Scoring
    points: tuple[int, ...]
    beans: tuple[int, ...]
    pfennigs: tuple[int, ...]
    pot: int
    pot_pfennigs: int

    def leaders(self) -> list[int]:
        """The seats that would win if the match ended now."""
        if self.scoring is Scoring.POINTS:
            best = min(self.points)
            return [s for s, p in enumerate(self.points) if p == best]
        worth = [b + 20 * p for b, p in zip(self.beans, self.pfennigs, strict=True)]
        return [s for s, w in enumerate(worth) if w == max(worth)]


class Match:
    """A whole match among ``players`` seats; see the module docstring."""

    __slots__ = ("_deck", "_stack_at", "breaches", "dealer", "deals_played", "history",
                 "options", "players", "purse", "schedule", "totals", "turn")

    options: Options
    players: int
    dealer: int  #: dealer of the next deal
    schedule: tuple[Contract, ...]  #: every deal's contract, in order
    turn: int  #: index in ``schedule`` of the next deal
    deals_played: int  #: deals finished or voided
    totals: list[int]  #: penalty points per seat (both scorings keep them)
    purse: Purse
    history: list[DealResult]
    breaches: list[tuple[int, Contract]]
    _deck: tuple[Card, ...] | None  #: the shuffled deck the short stack comes from
    _stack_at: int  #: first position of that stack; 0: a new shuffle is due

    @classmethod
    def start(cls, options: Options, players: int, first_dealer: int) -> Match:
        """A new match; ``first_dealer`` chosen by lot outside the engine."""
        check_table(players, first_dealer)
        self = cls.__new__(cls)
        self.options, self.players, self.dealer = options, players, first_dealer
        self.schedule = tuple(
            c for _ in range(options.rounds) for c in options.contracts for _ in range(players)
        )
        self.turn = self.deals_played = 0
        self.totals = [0] * players
        self.purse = Purse.start(players)
        self.history, self.breaches = [], []
        self._deck, self._stack_at = None, 0
        return self

    @property
    def is_over(self) -> bool:
        """Whether every deal of the schedule is played."""
        return self.turn >= len(self.schedule)

    @property
    def contract(self) -> Contract:
        """The contract of the next deal."""
        if self.is_over:
            raise RulesError("the match is over")
        return self.schedule[self.turn]

    @property
    def short(self) -> bool:
        """Whether the next deal is a short First-and-last (two cards each)."""
        return self.contract is Contract.FIRST_LAST and self.options.first_last_short

    def plan(self) -> DealPlan:
        """Where the next deal's cards come from (see the module docstring)."""
        short = self.short
        start = self._stack_at if short else 0
        return deal_plan(self.players, self.dealer, short=short, start=start)

    def new_deal(self, deck: Sequence[Card] | None = None, *, auto: bool = True) -> Deal:
        """The next deal. ``deck``: a new shuffled deck, top first; when the plan is not
        fresh (the short stack carries over) it may be left out, or must be that deck."""
        plan = self.plan()
        if plan.fresh:
            if deck is None:
                raise MalformedInput("this deal needs a newly shuffled deck")
            self._deck = check_deck(plan, deck)
        elif deck is not None and tuple(deck) != self._deck:
            raise MalformedInput("the short stack carries over: give the same deck or none")
        assert self._deck is not None
        return Deal.start(self.options, self.contract, self.dealer, self._deck,
                          players=self.players, plan=plan, auto=auto)

    def finish_deal(self, deal: Deal) -> DealResult:
        """Score a finished deal and pass the deal to the left."""
        self._check_current(deal)
        result = deal.result()
        for seat, gained in enumerate(result.points):
            self.totals[seat] += gained
        if self.options.scoring is Scoring.BEANS:
            eldest = eldest_of(self.players, self.dealer)
            settle(self.purse, result.contract, result.points, result.out, eldest)
        self.history.append(result)
        self._advance_stack()
        self.turn += 1
        self.deals_played += 1
        self.dealer = (self.dealer + 1) % self.players
        return result

    def breach(self, seat: int) -> None:
        """A proven breach by ``seat`` (LORUM.md 7): it alone scores ``breach_points``
        (beans: into the pot); the same dealer deals the same contract again."""
        if self.is_over:
            raise RulesError("the match is over")
        check_table(self.players, seat)
        points = self.options.breach_points
        self.totals[seat] += points
        if self.options.scoring is Scoring.BEANS:
            pay_into_pot(self.purse, seat, points)
        self.breaches.append((seat, self.contract))
        self._advance_stack()
        self.deals_played += 1

    def standings(self) -> Standings:
        """Totals, or beans, pfennigs and the pot."""
        p = self.purse
        return Standings(self.options.scoring, tuple(self.totals), tuple(p.beans),
                         tuple(p.pfennigs), p.pot, p.pot_pfennigs)

    @property
    def winners(self) -> list[int]:
        """The winning seats once the match is over (ties share); else empty."""
        return self.standings().leaders() if self.is_over else []

    def _check_current(self, deal: Deal) -> None:
        if self.is_over:
            raise RulesError("the match is over")
        if (deal.dealer, deal.players, deal.contract) != (
            self.dealer, self.players, self.contract
        ):
            raise RulesError("this deal does not belong to this match")

    def _advance_stack(self) -> None:
        """After a short deal, the stack passes on; a new shuffle once it is too short."""
        if not self.short:
            self._stack_at = 0
            return
        plan = self.plan()
        self._stack_at = plan.stack[0] if stack_holds_a_deal(plan) else 0
