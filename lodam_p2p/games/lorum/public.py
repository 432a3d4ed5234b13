"""The deal as every seat sees it, advanced by public events.

Theory of operation
-------------------
In Lodam everybody knows whose turn it is. Lorum breaks that in two places, and the
public machine says so rather than pretending:

* In ``quartet``, after the lead, the next card of the run must be played by *whoever
  holds it*. Nobody but its holder knows who that is. So :class:`PublicDeal` then has
  ``to_act is None`` and ``awaiting_card`` set to the card (the same for the Red King
  announcement: "the holder of ``KH`` may announce"). The event that moves it on is
  "seat *s* played *X*": the card is checked (it must be *X*), the seat only for holding
  some card. Whether *s* really held *X* is a fact of the hidden hands. The announcement
  names its seat either way (``announce(s, False)`` too): when it comes, everyone holds
  one card and the last trick has no choice left, so showing who holds ``KH`` costs
  nothing.
* Some steps have no choice, yet only the hidden hands say what they are: a Lorum pass
  (the seat holds nothing that fits), and every play under ``red_king_blind`` (the seat's
  next card in dealt order, which its owner cannot see either). The public machine knows
  the seat and accepts "seat *s* passed" or "seat *s* played *X*" as the event.

What the public machine can check, it checks at once: turn order where it is known, the
awaited card of a run, a card played twice or set aside, a lay that does not fit the rows
(the rows are public). What it cannot — following suit, the first-trick restrictions, a
pass while able to lay, the blind order, a silent holder of a run card — is a *breach*
(LORUM.md 7), proven at the end-of-deal audit: the full :class:`~.deal.Deal` replays the
same public events against the opened hands (:func:`~.deal.first_breach`). A silent
holder never produces an event at all; the table can tell who it was once the hands are
opened (``Deal.holder``).

The full ``Deal`` drives this same machine (it only adds the hands and the checks that
need them), so a peer that follows a ``PublicDeal`` from revealed cards stays in step
with the audit by construction. Set-aside cards (``7S 8S`` with three players) are face
up: the machine lays them itself, at once, when they fit.
"""

from __future__ import annotations

from lodam_p2p.games.kit.values import Holder, Turn
from lodam_p2p.games.lorum.actions import (
    Action,
    Announce,
    Decision,
    IllegalAction,
    Lay,
    MalformedInput,
    Pass,
    Play,
)
from lodam_p2p.games.lorum.cards import (
    KH_BIT,
    RED_KING,
    SET_ASIDE_MASK,
    Card,
    Suit,
)
from lodam_p2p.games.lorum.flow import CODE, FIFTH, LORUM, DealFlow
from lodam_p2p.games.lorum.options import MIN_PLAYERS, Contract, LorumStart, Options
from lodam_p2p.games.lorum.plan import check_table, full_hand
from lodam_p2p.games.lorum.records import TrickRecord

_PLAY, _LAY, _ANNOUNCE = Decision.PLAY, Decision.LAY, Decision.ANNOUNCE


class PublicDeal(DealFlow):
    """One deal tracked from public events only (see the module docstring)."""

    __slots__ = ()

    @classmethod
    def start(
        cls, options: Options, contract: Contract, players: int, dealer: int,
        hand_size: int | None = None,
    ) -> PublicDeal:
        """A deal about to begin; ``hand_size`` only for the short First-and-last (2)."""
        check_table(players, dealer)
        if not isinstance(contract, Contract):
            raise MalformedInput(f"not a contract: {contract!r}")
        self = cls.__new__(cls)
        self.options, self.contract, self.players, self.dealer = options, contract, players, dealer
        self.eldest = self.leader = (dealer + 1) % players
        self.hand_size = full_hand(players) if hand_size is None else hand_size
        self.hand_sizes = [self.hand_size] * players
        self.set_aside = SET_ASIDE_MASK if players == MIN_PLAYERS else 0
        self.points = [0] * players
        self._code = CODE[contract]
        self.blind = contract is Contract.RED_KING and options.red_king_blind
        self._gone = self.set_aside
        self._score_at = options.fifth_trick - 1 if self._code == FIFTH else -1
        self.current_trick, self.tricks_played = [], 0
        self._trick_log, self._tricks = [], []
        self._led, self._hi_seat, self._hi_rank, self._trick_mask = -1, -1, -1, 0
        self.announced, self.out, self.lays, self.is_over = False, [], [], False
        self._start_lorum(options)
        if self._code == LORUM:
            self.to_act, self.awaiting, self.awaiting_card = self.eldest, _LAY, None
        else:
            self._begin_lead()
        return self

    def _start_lorum(self, options: Options) -> None:
        self._unter = options.lorum_start is LorumStart.UNTER
        self.start_rank = 4 if self._unter else -1
        self._count, self._lo, self._hi = [0] * 4, [-1] * 4, [-1] * 4
        self._aside_left = self.set_aside
        self._fit = self._first_fit()
        self._gone = self.set_aside

    def copy(self) -> PublicDeal:
        """An independent copy (lists copied, immutable parts shared)."""
        new = PublicDeal.__new__(PublicDeal)
        for name in DealFlow.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("hand_sizes", "points", "current_trick", "out", "lays", "_count", "_lo",
                     "_hi", "_trick_log", "_tricks"):
            setattr(new, name, getattr(self, name)[:])
        return new

    # -- public facts -----------------------------------------------------------------

    @property
    def tricks(self) -> list[TrickRecord]:
        """Completed tricks (a Quartet run is one), public since played face up."""
        built, log = self._tricks, self._trick_log
        if len(built) < len(log):
            built.extend(TrickRecord(*row) for row in log[len(built):])
        return built

    @property
    def gone_mask(self) -> int:
        """Bit mask of the cards out of play: played, laid or set aside."""
        return self._gone

    @property
    def fit_mask(self) -> int:
        """Lorum: the cards that would fit the rows now."""
        return self._fit

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the trick in progress."""
        return Suit(self._led) if self._led >= 0 else None

    def rows(self) -> dict[Suit, tuple[Card, ...]]:
        """Lorum: each started row's cards in the order they were laid."""
        out: dict[Suit, list[Card]] = {}
        for _seat, card in self.lays:
            if card is not None:
                out.setdefault(card.suit, []).append(card)
        return {suit: tuple(cards) for suit, cards in out.items()}

    @property
    def forced(self) -> bool:
        """Whether the awaited step is known to leave no choice (a run card, a blind play)."""
        return self.awaiting is _PLAY and (self.awaiting_card is not None or self.blind)

    def whose_turn(self) -> Turn:
        """A seat, or in Quartet's runs and at the Red King announcement the holder of
        the awaited card (no one knows who); ``None`` once the deal is over."""
        if self.is_over:
            return None
        if self.to_act is None:
            return Holder(self.awaiting_card)
        return self.to_act

    # -- checked public events ----------------------------------------------------------

    def play(self, seat: int, card: Card) -> None:
        """Seat ``seat`` played ``card`` face up (a trick card, a Quartet lead or run card,
        a blind play)."""
        _check_card(card)
        action = Play(seat, card)
        self._check_step(seat, _PLAY, action)
        if self.awaiting_card is not None and card != self.awaiting_card:
            raise IllegalAction(seat, action, f"the run goes on with {self.awaiting_card}")
        if self._gone >> card.index & 1:
            raise IllegalAction(seat, action, f"{card} is out of play")
        self._do_play(seat, card)

    def lay(self, seat: int, card: Card) -> None:
        """Lorum: ``seat`` laid ``card`` to the rows."""
        _check_card(card)
        action = Lay(seat, card)
        self._check_step(seat, _LAY, action)
        if self._gone >> card.index & 1 or not self._fit >> card.index & 1:
            raise IllegalAction(seat, action, f"{card} does not fit the rows")
        self._do_lay(seat, card)

    def pass_turn(self, seat: int) -> None:
        """Lorum: ``seat`` passed (checked against its hand only at the audit)."""
        self._check_step(seat, _LAY, Pass(seat))
        self._do_pass(seat)

    def announce(self, seat: int, announced: bool) -> None:
        """Red King: ``seat`` (claiming to hold ``KH``) announced it or kept quiet."""
        if not isinstance(announced, bool):
            raise MalformedInput(f"an announcement is true or false, got {announced!r}")
        self._check_step(seat, _ANNOUNCE, Announce(seat, announced))
        self._do_announce(seat, announced)

    def apply_event(self, action: Action) -> None:
        """Any of the events above, given as the action a seat took."""
        if isinstance(action, Play):
            self.play(action.seat, action.card)
        elif isinstance(action, Lay):
            self.lay(action.seat, action.card)
        elif isinstance(action, Pass):
            self.pass_turn(action.seat)
        elif isinstance(action, Announce):
            self.announce(action.seat, action.announced)
        else:
            raise MalformedInput(f"not a Lorum event: {action!r}")

    def _check_step(self, seat: int, decision: Decision, action: Action) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise MalformedInput(f"no seat {seat!r} at a table of {self.players}")
        if self.is_over:
            raise IllegalAction(seat, action, "the deal is over")
        if self.awaiting is not decision:
            raise IllegalAction(seat, action, self.turn_reason(seat))
        if self.to_act is None:
            if not self.hand_sizes[seat]:
                raise IllegalAction(seat, action, "it holds no cards")
            if decision is _ANNOUNCE and self._gone & KH_BIT:
                raise IllegalAction(seat, action, f"{RED_KING} is already played")
        elif self.to_act != seat:
            raise IllegalAction(seat, action, self.turn_reason(seat))

    def turn_reason(self, seat: int | None = None) -> str:
        """Why ``seat`` may not act so now: whose turn it is and for what."""
        if self.is_over or self.awaiting is None:
            return "the deal is over"
        what = self.awaiting.value
        if self.to_act is None:
            return f"the holder of {self.awaiting_card} is to {what}"
        if seat == self.to_act:
            return f"its step now is to {what}"
        return f"it is seat {self.to_act}'s turn to {what}"


def _check_card(card: object) -> None:
    if type(card) is not Card:
        raise MalformedInput(f"not a card: {card!r}")
