"""The match: counters, elimination, the passing of the deal, winners and stakes.

RULES.md 3, 8, 9 and 10. A :class:`Match` hands out deals (:meth:`Match.new_deal`) and
settles them (:meth:`Match.finish_deal`). The one subtle rule is the dealer's turn: the
deal passes to the next seat on the left *among the seats active at the start of the
finished deal*. A seat eliminated in that deal may therefore be next dealer; it deals once
more (receiving no cards), so that nobody loses a turn as eldest hand, and is skipped
after that, since it is no longer active at the start of the deal it dealt.
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.games.lodam.actions import MalformedInput, RulesError
from lodam_p2p.games.lodam.cards import Card
from lodam_p2p.games.lodam.deal import Deal
from lodam_p2p.games.lodam.options import MAX_PLAYERS, MIN_PLAYERS, Options
from lodam_p2p.games.lodam.records import DealResult


class Match:
    """A whole match among ``players`` seats; see the module docstring."""

    __slots__ = (
        "active",
        "dealer",
        "deals_played",
        "eliminated_in",
        "is_over",
        "lives",
        "options",
        "players",
        "winners",
    )

    options: Options
    players: int
    lives: list[int]  #: counters held per seat
    dealer: int  #: dealer of the next deal
    active: list[bool]  #: who is dealt in next (not eliminated)
    deals_played: int
    is_over: bool
    winners: list[int]
    #: per seat, the number of deals played when it was eliminated (None: still in)
    eliminated_in: list[int | None]

    @classmethod
    def start(cls, options: Options, players: int, first_dealer: int) -> Match:
        """A new match: every seat holds ``options.lives`` counters (0 in Winning Lodam)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise MalformedInput(f"a match seats 2 to 10 players, got {players}")
        start_lives = 0 if options.winning else options.lives
        return cls.resume(options, [start_lives] * players, first_dealer)

    @classmethod
    def resume(
        cls, options: Options, lives: Sequence[int], dealer: int,
        active: Sequence[bool] | None = None,
    ) -> Match:
        """A match at a given point: ``lives`` per seat, ``dealer`` of the next deal,
        ``active`` (default: lives > 0, or everyone in Winning Lodam)."""
        players = len(lives)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise MalformedInput(f"a match seats 2 to 10 players, got {players}")
        if not 0 <= dealer < players:
            raise MalformedInput(f"dealer must be a seat 0 … {players - 1}, got {dealer}")
        self = cls.__new__(cls)
        self.options, self.players, self.dealer = options, players, dealer
        self.lives = list(lives)
        if active is None:
            self.active = [options.winning or life > 0 for life in lives]
        else:
            self.active = [bool(a) for a in active]
        self.deals_played, self.is_over, self.winners = 0, False, []
        self.eliminated_in = [None if a else 0 for a in self.active]
        return self

    def remaining(self) -> list[int]:
        """Seats still in the match."""
        return [s for s in range(self.players) if self.active[s]]

    def pack_size(self) -> int:
        """52, or 32 once ``short_deck_at`` or fewer players remain."""
        return self.options.pack_size(sum(self.active))

    def new_deal(self, deck: Sequence[Card]) -> Deal:
        """The next deal, dealt from ``deck`` (the whole pack, top first)."""
        if self.is_over:
            raise RulesError("the match is over")
        return Deal.start(self.options, self.dealer, self.lives, deck, self.active)

    def finish_deal(self, deal: Deal) -> DealResult:
        """Settle a finished deal: counters, elimination, the next dealer, winners."""
        if deal.dealer != self.dealer or deal.players != self.players:
            raise RulesError("this deal does not belong to this match")
        result = deal.result()
        self.settle(result.counter_change)
        return result

    def settle(self, counter_change: Sequence[int]) -> None:
        """Apply one deal's counter changes (all 0 for a deal stopped by an error) and
        pass the deal to the left among the seats active at its start."""
        if self.is_over:
            raise RulesError("the match is over")
        dealt_in = self.active[:]
        before = [s for s in range(self.players) if dealt_in[s]]
        for seat, change in enumerate(counter_change):
            self.lives[seat] = max(0, self.lives[seat] + change)
            if change < 0 and self.lives[seat] == 0 and not self.options.winning:
                self._eliminate(seat)
        self.deals_played += 1
        self.dealer = _next_of(dealt_in, self.dealer)
        self._decide(before)

    def revoke(self, seat: int) -> None:
        """A proven revoke (RULES.md 8): ``seat`` is out of the match at once, the deal
        is void for everyone else, and the same dealer deals again."""
        if not self.active[seat]:
            raise RulesError(f"seat {seat} is not in the match")
        before = self.remaining()
        if not self.options.winning:
            self.lives[seat] = 0
        self._eliminate(seat)
        self.deals_played += 1
        self._decide(before)

    def payouts(self) -> list[int]:
        """Chips won (+) or lost (−) per seat once the match is over (RULES.md 9): each
        paid ``stake``; joint winners share the pot, the remainder to the earliest."""
        if not self.is_over:
            raise RulesError("the match is not over")
        stake = self.options.stake
        net = [-stake] * self.players
        share, rest = divmod(stake * self.players, len(self.winners))
        for seat in self.winners:
            net[seat] += share
        net[min(self.winners)] += rest
        return net

    def _eliminate(self, seat: int) -> None:
        self.active[seat] = False
        self.eliminated_in[seat] = self.deals_played

    def _decide(self, before: list[int]) -> None:
        """Winners, if the match just ended. ``before``: seats in it before this deal."""
        if self.options.winning:
            left = self.remaining()
            reached = [s for s in left if self.lives[s] >= self.options.lives]
            winners = reached or (left if len(left) < MIN_PLAYERS else [])
        else:
            left = self.remaining()
            winners = left if len(left) == 1 else before if not left else []
        if winners:
            self.is_over, self.winners = True, winners


def _next_of(dealt_in: list[bool], dealer: int) -> int:
    """The next seat left of ``dealer`` among ``dealt_in``."""
    n = len(dealt_in)
    for step in range(1, n + 1):
        seat = (dealer + step) % n
        if dealt_in[seat]:
            return seat
    return dealer
