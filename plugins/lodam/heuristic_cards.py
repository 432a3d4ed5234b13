"""The heuristic bot's reading of a trick: who wins it now, who may still take it over,
what a card is worth keeping, and what each legal card is likely to cost.

Theory of play
--------------
Every point taken is bad (the most points at the end loses a counter) and reaching
``out_at`` loses one at once. So each legal card gets an *expected cost*::

    cost(c) = P(c takes the trick) · take_cost(points the trick will then hold)
              − liability(c)                       # c leaves the hand for good
              − P(c does not take it) · shed(c)    # c's points go to someone else

``take_cost`` is the points, plus a large penalty when they would bring this seat to
``out_at``. ``liability`` is what keeping ``c`` is expected to cost later: high cards of
a suit in which few stronger cards are unseen will win a trick some day, and bring its
loaders home. ``shed`` rewards giving loaders away, most of all to a seat that they push
to ``out_at`` (the deal then ends with that seat losing the counter). The chance that a
card is overtaken is estimated from the unseen cards, the seats still to play, the
voids they have shown and the trump.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from lodam_p2p.bots.knowledge import Knowledge
from lodam_p2p.games.lodam import Card, PlayerView, Suit, strength_table

#: Extra cost of a trick that brings this seat to ``out_at`` (losing a counter now).
OUT_PENALTY = 80.0
#: Extra worth of giving a seat the points that put it out (the deal ends, not on us).
PUSH_OUT_BONUS = 25.0
#: How likely a seat that can overtake actually does so.
OVERTAKE_WILL = 0.6


@dataclass(frozen=True, slots=True)
class Reading:
    """One decision's reading of the position (build with :meth:`of`)."""

    view: PlayerView
    know: Knowledge
    risk: float  #: weight of points taken (the ``risk`` bot option)
    strength: tuple[int, ...]  #: strength within its suit, by card index
    unseen_strengths: dict[Suit, list[int]]  #: per suit, strengths of unseen cards, sorted

    @classmethod
    def of(cls, view: PlayerView, risk: float = 1.0) -> Reading:
        """Read ``view``."""
        know = Knowledge.of(view)
        table = strength_table(view.options.rank_order)
        by_suit: dict[Suit, list[int]] = {suit: [] for suit in Suit}
        for card in know.unseen:
            by_suit[card.suit].append(table[card.index])
        for strengths in by_suit.values():
            strengths.sort()
        return cls(view, know, risk, table, by_suit)

    def stronger_unseen(self, card: Card) -> int:
        """How many unseen cards of ``card``'s suit beat it."""
        strengths = self.unseen_strengths[card.suit]
        return len(strengths) - bisect_right(strengths, self.strength[card.index])

    # -- seats and the trick ----------------------------------------------------------

    def to_play_after(self, seat: int) -> list[int]:
        """Active seats that still play to the current trick after ``seat``."""
        view = self.view
        out: list[int] = []
        t = seat
        while True:
            t = (t + 1) % view.players
            if t == view.leader:
                return out
            if view.active[t]:
                out.append(t)

    def key(self, card: Card, led: Suit) -> tuple[int, int]:
        """Trick-taking order: trumps, then the led suit, by strength."""
        tier = 2 if card.suit == self.view.trump else 1 if card.suit == led else 0
        return (tier, self.strength[card.index])

    def winner_now(self) -> tuple[int, Card] | None:
        """The seat and card winning the trick on the table so far."""
        trick = self.view.current_trick
        if not trick:
            return None
        led = trick[0][1].suit
        return max(trick, key=lambda played: self.key(played[1], led))

    def trick_points(self) -> int:
        """Loader points already in the trick on the table."""
        return sum(card.points for _seat, card in self.view.current_trick)

    # -- probabilities ----------------------------------------------------------------

    def share_of(self, seat: int) -> float:
        """The part of the unseen cards that ``seat`` holds."""
        unseen = len(self.know.unseen)
        return self.view.hand_sizes[seat] / unseen if unseen else 0.0

    def p_holds_any(self, seat: int, cards: int) -> float:
        """Chance that ``seat`` holds at least one of ``cards`` unseen cards."""
        return 1.0 - (1.0 - min(1.0, self.share_of(seat))) ** cards

    def p_trump_is(self, suit: Suit) -> float:
        """Before the trump is turned: the chance the talon top is of ``suit``."""
        unseen = self.know.unseen
        if not unseen:
            return 0.25
        return sum(1 for card in unseen if card.suit == suit) / len(unseen)

    def p_overtaken(self, card: Card, led: Suit, seats: list[int]) -> float:
        """Chance that one of ``seats`` (playing after us) takes the trick from ``card``."""
        view, know = self.view, self.know
        mine = self.key(card, led)
        stronger_led = sum(1 for c in know.unseen_in(led) if self.key(c, led) > mine)
        trumps = view.trump
        stronger_trumps = 0
        if trumps is not None and trumps != led:
            stronger_trumps = sum(
                1 for c in know.unseen_in(trumps) if self.key(c, led) > mine
            )
        keep = 1.0
        for seat in seats:
            if know.is_void(seat, led):
                if trumps is None:
                    p = 0.25 * OVERTAKE_WILL
                else:
                    p = OVERTAKE_WILL * self.p_holds_any(seat, stronger_trumps)
            else:
                p = OVERTAKE_WILL * self.p_holds_any(seat, stronger_led)
            keep *= 1.0 - p
        return 1.0 - keep

    def expected_added(self, led: Suit, seats: list[int]) -> float:
        """Loader points the seats still to play are expected to add to the trick."""
        unseen = self.know.unseen
        follow = [c.points for c in self.know.unseen_in(led)]
        mean_follow = sum(follow) / len(follow) if follow else 0.0
        mean_any = sum(c.points for c in unseen) / len(unseen) if unseen else 0.0
        return sum(
            1.5 * mean_any if self.know.is_void(seat, led) or not follow else mean_follow
            for seat in seats
        )

    # -- worth ------------------------------------------------------------------------

    def take_cost(self, points: float, seat: int | None = None) -> float:
        """What taking a trick of ``points`` costs ``seat`` (us by default)."""
        seat = self.view.seat if seat is None else seat
        cost = points * self.risk
        if self.view.points[seat] + points >= self.view.options.out_at:
            cost += OUT_PENALTY
        return cost

    def liability(self, card: Card) -> float:
        """Expected cost of keeping ``card``: its chance of winning a trick some day,
        times its own points and the loaders such a trick gathers."""
        return 0.85 * 0.55 ** self.stronger_unseen(card) * (card.points + 4.0)

    def shed(self, card: Card, receiver: int | None, trick_points: int) -> float:
        """Worth of putting ``card`` on a trick that ``receiver`` takes."""
        worth = 0.3 * card.points
        if receiver is not None and receiver != self.view.seat:
            total = self.view.points[receiver] + trick_points + card.points
            if total >= self.view.options.out_at and card.points:
                worth += PUSH_OUT_BONUS
        return worth

    # -- the cost of each card --------------------------------------------------------

    def card_cost(self, card: Card) -> float:
        """Expected cost of playing ``card`` now (see the module docstring)."""
        view = self.view
        now = self.winner_now()
        led = card.suit if now is None else view.current_trick[0][1].suit
        after = self.to_play_after(view.seat)
        p_win = self._p_win(card, led, now, after)
        trick = self.trick_points() + card.points + self.expected_added(led, after)
        receiver = now[0] if now is not None else (after[0] if after else None)
        return (
            p_win * self.take_cost(trick)
            - self.liability(card)
            - (1.0 - p_win) * self.shed(card, receiver, self.trick_points())
        )

    def _p_win(
        self, card: Card, led: Suit, now: tuple[int, Card] | None, after: list[int]
    ) -> float:
        view = self.view
        if view.trump is None and now is not None and card.suit != led:
            # Our renounce turns the trump: the card takes the trick if it is trump.
            p_trump = self.p_trump_is(card.suit)
            return p_trump * (1.0 - self.p_overtaken(card, led, after) * 0.5)
        if now is not None and self.key(card, led) < self.key(now[1], led):
            return 0.0
        return 1.0 - self.p_overtaken(card, led, after)
