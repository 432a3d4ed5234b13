"""The offline table: a whole match in one process, with the rules engine only.

:func:`play_local` is a *table driver* with the same shape as the network session's
``play_table``: it takes one :class:`~lodam_p2p.tableplan.SeatPlan` per seat, tells every
seat's :class:`~lodam_p2p.player.Player` what happens and awaits its decisions, and
returns a :class:`~lodam_p2p.tableplan.MatchOutcome`. There is no broker, no fair-deal
protocol and no audit: the decks are shuffled here with a seeded :class:`random.Random`
(randomness is fine outside ``rules`` and ``fairdeal``), which is what makes ``lodam play
--offline --seed S`` replay exactly.

The order of what a player hears follows the network driver, so a client written against
one works with the other:

``SeatsChanged`` once; then per deal ``Progress(SHUFFLING)``, ``Progress(DEALING)``,
``Progress(PLAYING)`` and a ``ViewChanged`` for every seat; after every accepted action a
``ViewChanged`` for every seat (``last_action`` is the action itself for the seat that
took it, and for the others only when it hides nothing: a card offered or given in an
exchange stays secret); ``Progress(AUDIT)``, ``DealEnded``, ``Progress(DEAL_OVER)``; and at
the end ``MatchEnded`` and ``Progress(MATCH_OVER)``. A refused answer gets a ``Notice``
to the seat that gave it and the question again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    SeatInfo,
    SeatsChanged,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.rules import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Deal,
    IllegalAction,
    Match,
    Offer,
    Options,
)
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

#: The table name an offline match reports.
LOCAL_TABLE = "local"
#: Refused answers in a row after which the seat's default (or first legal) answer is taken.
MAX_REFUSALS = 5
#: What the end-of-deal audit says at a table that has no protocol to audit.
LOCAL_AUDIT = "not needed (offline table: the deal was made in this process)"


class LocalTable:
    """One offline match; :func:`play_local` is the way to run it."""

    def __init__(self, options: Options, seats: Sequence[SeatPlan], seed: int | None) -> None:
        if not 2 <= len(seats) <= 10:
            raise ValueError(f"a table seats 2 to 10 players, got {len(seats)}")
        self.options = options
        self.seats = tuple(seats)
        self.rng = random.Random(seed)
        self.match = Match.start(options, len(seats), self.rng.randrange(len(seats)))

    # -- telling ----------------------------------------------------------------------

    def tell(self, event: TableEvent) -> None:
        """Tell every seat the same ``event``."""
        for plan in self.seats:
            plan.player.notify(event)

    def tell_seats(self) -> None:
        """Who sits where, told to each seat with its own number."""
        infos = tuple(SeatInfo(i, p.name, p.kind) for i, p in enumerate(self.seats))
        for seat, plan in enumerate(self.seats):
            plan.player.notify(SeatsChanged(infos, seat))

    def tell_views(self, deal: Deal, action: Action | None) -> None:
        """Every seat's new view, with the action that caused it where that is public."""
        for seat, plan in enumerate(self.seats):
            shown = action if action is None or action.seat == seat else public_part(action)
            plan.player.notify(ViewChanged(deal.view(seat), shown))

    # -- playing ------------------------------------------------------------------------

    async def play(self) -> MatchOutcome:
        """Play deals until the match is over."""
        self.tell_seats()
        while not self.match.is_over:
            await self.play_deal()
        standings = standings_of(self.match)
        payouts = tuple(self.match.payouts())
        self.tell(MatchEnded(tuple(self.match.winners), standings, self.match.deals_played,
                             payouts))
        self.tell(Progress(Phase.MATCH_OVER))
        return MatchOutcome(
            table=LOCAL_TABLE, winners=tuple(self.match.winners),
            deals=self.match.deals_played, audits_passed=self.match.deals_played,
            lives=tuple(self.match.lives), payouts=payouts,
        )

    async def play_deal(self) -> None:
        """One deal: shuffle, deal, ask for every decision, settle."""
        self.tell(Progress(Phase.SHUFFLING, detail="shuffling in this process"))
        deck = list(SHORT_PACK if self.match.pack_size() == len(SHORT_PACK) else FULL_PACK)
        self.rng.shuffle(deck)
        self.tell(Progress(Phase.DEALING, detail="dealing in this process"))
        deal = self.match.new_deal(deck)
        self.tell(Progress(Phase.PLAYING))
        self.tell_views(deal, None)
        while not deal.is_over:
            action = await self.ask(deal)
            self.tell_views(deal, action)
        self.tell(Progress(Phase.AUDIT, detail="nothing to audit offline"))
        result = self.match.finish_deal(deal)
        self.tell(DealEnded(result.points, result.counter_change, tuple(self.match.lives),
                            result.reason, LOCAL_AUDIT))
        self.tell(Progress(Phase.DEAL_OVER))

    async def ask(self, deal: Deal) -> Action:
        """The accepted answer of the seat to act (applied to ``deal``)."""
        seat = deal.to_act
        assert seat is not None
        player = self.seats[seat].player
        for _ in range(MAX_REFUSALS):
            action = await player.decide(deal.view(seat))
            try:
                deal.apply(action)
            except IllegalAction as err:
                player.notify(Notice(NoticeLevel.WARNING, f"refused: {err.reason}"))
                continue
            return action
        action = deal.default_action() or deal.legal_actions()[0]
        player.notify(Notice(NoticeLevel.ERROR, f"too many refused answers: {action} for you"))
        deal.apply(action)
        return action


def public_part(action: Action) -> Action | None:
    """What the other seats may see of ``action``: ``None`` if it hides a card."""
    if isinstance(action, Offer | Answer) and action.card is not None:
        return None
    return action


def standings_of(match: Match) -> tuple[int, ...]:
    """Seats best first: winners, then by counters held, then by who lasted longer."""

    def key(seat: int) -> tuple[bool, int, float, int]:
        out_at = match.eliminated_in[seat]
        lasted = float("inf") if out_at is None else float(out_at)
        return (seat not in match.winners, -match.lives[seat], -lasted, seat)

    return tuple(sorted(range(match.players), key=key))


async def play_local(
    *, options: Options, seats: Sequence[SeatPlan], seed: int | None = None
) -> MatchOutcome:
    """Play a whole match among ``seats`` in this process (see the module docstring).

    ``seed`` fixes the first dealer and every deck; ``None`` draws them fresh.
    """
    return await LocalTable(options, seats, seed).play()
