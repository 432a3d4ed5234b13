"""The machine of one Lorum deal: whose turn comes next, and what each event changes.

:class:`DealFlow` is the state and the transitions of a deal as everybody sees it; it is
the base of :class:`~lodam_p2p.games.lorum.public.PublicDeal`, which adds construction
and the checked public events. Each ``_do_*`` method applies an event already known to be
legal and moves to the next step. The three shapes of deal:

- trick contracts (1–6): PLAY × n from the leader; the highest card of the led suit takes
  the trick and its points; the deal ends after the last trick or as soon as nothing is
  left to score. In ``red_king`` the holder of ``KH`` may ANNOUNCE before the last lead.
- ``quartet``: the leader PLAYs any card; then "the holder of the next card" PLAYs it
  (``to_act is None``, ``awaiting_card`` names the card) until three have followed or the
  next card is out of play; the last player of the run leads again. The first empty hand
  ends the deal, in mid-run too.
- ``lorum``: LAY (or pass) in turn to the left; ``_fit`` is the mask of the cards that fit
  the rows now (public: it depends on the rows alone). Set-aside cards that fit are laid
  at once by nobody.
"""

from __future__ import annotations

from lodam_p2p.games.lorum.actions import Decision
from lodam_p2p.games.lorum.cards import (
    CARDS,
    HEARTS,
    KH_BIT,
    OBERS,
    PACK_MASK,
    RED_KING,
    UNTERS,
    Card,
)
from lodam_p2p.games.lorum.options import Contract, LorumStart, Options
from lodam_p2p.games.lorum.records import TrickRecord

_PLAY, _LAY, _ANNOUNCE = Decision.PLAY, Decision.LAY, Decision.ANNOUNCE
# contract codes for the hot path
REDS, OBERS_, TRICKS, FIRST_LAST, FIFTH, RED_KING_, QUARTET, LORUM = range(8)
CODE = {c: i for i, c in enumerate(Contract)}


class DealFlow:
    """State and transitions of a deal as everybody sees it (see the module docstring)."""

    __slots__ = (
        "_aside_left", "_code", "_count", "_fit", "_gone", "_hi", "_hi_rank", "_hi_seat",
        "_led", "_lo", "_score_at", "_trick_log", "_trick_mask", "_tricks", "_unter",
        "announced", "awaiting", "awaiting_card", "blind", "contract", "current_trick",
        "dealer", "eldest", "hand_size", "hand_sizes", "is_over", "lays", "leader",
        "options", "out", "players", "points", "set_aside", "start_rank", "to_act",
        "tricks_played",
    )

    options: Options
    contract: Contract
    players: int
    dealer: int
    eldest: int
    hand_size: int
    hand_sizes: list[int]
    set_aside: int  #: mask of the cards set aside face up (7S 8S with three players)
    points: list[int]  #: points scored in this deal so far, per seat
    to_act: int | None  #: the seat to act, when the public knows it
    awaiting: Decision | None
    awaiting_card: Card | None  #: Quartet run / announcement: "the holder of this card"
    is_over: bool
    blind: bool  #: red_king_blind: every play is the seat's next card in dealt order
    leader: int
    current_trick: list[tuple[int, Card]]  #: the trick or Quartet run in progress
    tricks_played: int
    announced: bool
    out: list[int]  #: seats in the order their hands emptied (Quartet, Lorum)
    lays: list[tuple[int | None, Card | None]]  #: Lorum: (seat, card), (seat, None) a pass,
    #: (None, card) a set-aside card laid at once
    start_rank: int  #: Lorum: the starting rank (-1 before the first lay; 4 with Unter start)
    _code: int
    _gone: int  #: cards played, laid or set aside: out of play
    _aside_left: int  #: set-aside cards not yet laid (Lorum)
    _led: int
    _hi_seat: int
    _hi_rank: int
    _trick_mask: int
    _score_at: int  #: fifth: index of the scoring trick
    _fit: int  #: Lorum: the cards that fit the rows now
    _unter: bool
    _count: list[int]  #: Lorum (any start): cards in each suit's row
    _lo: list[int]  #: Lorum (Unter start): lowest and highest rank of each row, -1 none
    _hi: list[int]
    _trick_log: list[tuple[int, tuple[tuple[int, Card], ...], int, int]]
    _tricks: list[TrickRecord]

    # -- trick contracts and Quartet --------------------------------------------------

    def _begin_lead(self) -> None:
        """The leader is to lead (or, in red_king, the announcement comes first)."""
        if (
            self._code == RED_KING_ and not self.blind
            and self.tricks_played == self.hand_size - 1 and not self._gone & KH_BIT
        ):
            self.to_act, self.awaiting, self.awaiting_card = None, _ANNOUNCE, RED_KING
        else:
            self.to_act, self.awaiting, self.awaiting_card = self.leader, _PLAY, None

    def _do_announce(self, seat: int, announced: bool) -> None:
        self.announced = announced
        self.to_act, self.awaiting, self.awaiting_card = self.leader, _PLAY, None

    def _do_play(self, seat: int, card: Card) -> None:
        if self._code == QUARTET:
            self._do_run(seat, card)
            return
        index = card.index
        rank = index & 7
        self.current_trick.append((seat, card))
        self.hand_sizes[seat] -= 1
        self._gone |= 1 << index
        self._trick_mask |= 1 << index
        if self._led < 0:
            self._led, self._hi_seat, self._hi_rank = index >> 3, seat, rank
        elif index >> 3 == self._led and rank > self._hi_rank:
            self._hi_seat, self._hi_rank = seat, rank
        if len(self.current_trick) == self.players:
            self._finish_trick()
        else:
            self.to_act = (seat + 1) % self.players

    def _finish_trick(self) -> None:
        winner, number = self._hi_seat, self.tricks_played
        gained = self._trick_points(number, self._trick_mask)
        self.points[winner] += gained
        self._trick_log.append((self.leader, tuple(self.current_trick), winner, gained))
        self.current_trick = []
        self._led, self._trick_mask = -1, 0
        self.leader = winner
        self.tricks_played = number + 1
        if self._nothing_left():
            self._end()
        else:
            self._begin_lead()

    def _trick_points(self, number: int, mask: int) -> int:
        code = self._code
        if code == REDS:
            return (mask & HEARTS).bit_count()
        if code == OBERS_:
            return 2 * (mask & OBERS).bit_count()
        if code == TRICKS:
            return 1
        if code == FIRST_LAST:
            last = number == 0 or number == self.hand_size - 1
            return self.options.first_last_points if last else 0
        if code == FIFTH:
            return self.options.fifth_points() if number == self._score_at else 0
        if not mask & KH_BIT:
            return 0
        if self.blind:
            return 5
        if number == 0:
            return 16
        if number == self.hand_size - 1:
            return 64 if self.announced else 32
        return 8

    def _nothing_left(self) -> bool:
        """Whether the deal ends after this trick (LORUM.md 4: early ends)."""
        code, gone = self._code, self._gone
        if self.tricks_played == self.hand_size:
            return True
        if code == REDS:
            return gone & HEARTS == HEARTS
        if code == OBERS_:
            return gone & OBERS == OBERS
        if code == FIFTH:
            return self.tricks_played > self._score_at
        return code == RED_KING_ and bool(gone & KH_BIT)

    def _do_run(self, seat: int, card: Card) -> None:
        """A Quartet card: a lead, or the next card of the run."""
        index = card.index
        run = self.current_trick
        if not run:
            self.leader = seat
        run.append((seat, card))
        self.hand_sizes[seat] -= 1
        self._gone |= 1 << index
        if self.hand_sizes[seat] == 0:
            self._log_run(seat)
            self._out(seat)
            self._end()
            return
        following = index + 1
        if len(run) < 4 and index & 7 != 7 and not self._gone >> following & 1:
            self.to_act, self.awaiting_card = None, CARDS[following]
            return
        self._log_run(seat)
        self.leader = self.to_act = seat
        self.awaiting_card = None

    def _log_run(self, last: int) -> None:
        self._trick_log.append((self.leader, tuple(self.current_trick), last, 0))
        self.current_trick = []
        self.tricks_played += 1

    # -- Lorum ------------------------------------------------------------------------

    def _do_lay(self, seat: int, card: Card) -> None:
        self.lays.append((seat, card))
        self.hand_sizes[seat] -= 1
        self._place(card.index)
        if self.hand_sizes[seat] == 0:
            self._out(seat)
            if self.is_over:
                return
        self._next_layer(seat)

    def _do_pass(self, seat: int) -> None:
        self.lays.append((seat, None))
        self.points[seat] += 1
        self._next_layer(seat)

    def _next_layer(self, seat: int) -> None:
        n, sizes = self.players, self.hand_sizes
        following = (seat + 1) % n
        while not sizes[following]:
            following = (following + 1) % n
        self.to_act = following

    def _place(self, index: int) -> None:
        """Lay card ``index`` to its row, then any set-aside card that now fits."""
        while True:
            self._gone |= 1 << index
            suit, rank = index >> 3, index & 7
            if self._unter:
                lo, hi = self._lo, self._hi
                if lo[suit] < 0:
                    lo[suit] = hi[suit] = rank
                elif rank > hi[suit]:
                    hi[suit] = rank
                else:
                    lo[suit] = rank
                self._refit_suit(suit)
            elif self.start_rank < 0:
                self.start_rank = rank
                self._count[suit] = 1
                self._fit = 0
                for each in range(4):
                    self._refit_suit(each)
            else:
                self._count[suit] += 1
                self._refit_suit(suit)
            aside = self._fit & self._aside_left
            if not aside:
                return
            index = (aside & -aside).bit_length() - 1
            self._aside_left ^= 1 << index
            self.lays.append((None, CARDS[index]))

    def _refit_suit(self, suit: int) -> None:
        """Recompute the cards of ``suit`` that fit its row (``_fit`` is kept per suit)."""
        base = suit * 8
        fit = self._fit & ~(255 << base)
        if self._unter:
            lo, hi = self._lo[suit], self._hi[suit]
            if lo < 0:
                fit |= 1 << (base + 4)
            else:
                if hi < 7:
                    fit |= 1 << (base + hi + 1)
                if lo > 0:
                    fit |= 1 << (base + lo - 1)
        else:
            count = self._count[suit]
            if count < 8:
                fit |= 1 << (base + (self.start_rank + count) % 8)
        self._fit = fit

    def _first_fit(self) -> int:
        """The cards that may open a Lorum deal."""
        if self.options.lorum_start is LorumStart.UNTER:
            return UNTERS
        return PACK_MASK & ~self.set_aside

    # -- the end ----------------------------------------------------------------------

    def _out(self, seat: int) -> None:
        """``seat`` emptied its hand: the others' cards score (× the place, play-on)."""
        self.out.append(seat)
        place = len(self.out)
        for other, held in enumerate(self.hand_sizes):
            self.points[other] += place * held
        if place == self.players - 1 or not (
            self._code == LORUM and self.options.lorum_play_on
        ):
            self._end()

    def _end(self) -> None:
        self.is_over = True
        self.to_act = self.awaiting = self.awaiting_card = None
