"""The offline table: a whole match in one process, with the game's engine only.

:func:`play_local` is a *table driver* with the same shape as the network session's
``play_table``: it takes one :class:`~lodam_p2p.tableplan.SeatPlan` per seat, tells every
seat's :class:`~lodam_p2p.player.Player` what happens and awaits its decisions, and
returns a :class:`~lodam_p2p.tableplan.MatchOutcome`. There is no broker, no fair-deal
protocol and no audit: the decks (the game's pack for each deal) are shuffled here with
a seeded :class:`random.Random` (randomness is fine outside the pure cores: the games and
``fairdeal``), which is what makes ``lodam play --offline --seed S`` replay
exactly.

The order of what a player hears follows the network driver, so a client written against
one works with the other:

``SeatsChanged`` once; then per deal ``Progress(SHUFFLING)``, ``Progress(DEALING)``,
``Progress(PLAYING)`` and a ``ViewChanged`` for every seat; after every accepted action a
``ViewChanged`` for every seat (``last_action`` is the action itself for the seat that
took it, and for the others only when it hides nothing: a card offered or given in an
exchange stays secret); ``Progress(AUDIT)``, ``DealEnded`` (its ``detail``: the game's
record of the deal), ``Progress(DEAL_OVER)``; and at the end ``MatchEnded`` (its
``detail``: the game's :class:`~lodam_p2p.games.kit.values.Standings`) and
``Progress(MATCH_OVER)``. A refused answer gets a ``Notice`` to the seat that gave it and
the question again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game, GameDeal, GameMatch, get_game
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
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

#: The table name an offline match reports.
LOCAL_TABLE = "local"
#: Refused answers in a row after which the seat's default (or first legal) answer is taken.
MAX_REFUSALS = 5
#: What the end-of-deal audit says at a table that has no protocol to audit.
LOCAL_AUDIT = "not needed (offline table: the deal was made in this process)"


class LocalTable:
    """One offline match; :func:`play_local` is the way to run it."""

    def __init__(self, options: Any, seats: Sequence[SeatPlan], seed: int | None,
                 game: Game | None = None) -> None:
        self.game = get_game(DEFAULT_GAME) if game is None else game
        self.game.seats.check(len(seats), self.game.title)
        self.options = options
        self.seats = tuple(seats)
        self.rng = random.Random(seed)
        self.match: GameMatch = self.game.start_match(
            options, len(seats), self.rng.randrange(len(seats)))
        #: the last deck shuffled; a deal that does not reshuffle deals on from it
        self.deck: list[Any] | None = None

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

    def tell_views(self, deal: GameDeal, action: Any) -> None:
        """Every seat's new view, with the action that caused it where that is public."""
        for seat, plan in enumerate(self.seats):
            shown = (action if action is None or action.seat == seat
                     else self.game.public_action(action))
            plan.player.notify(ViewChanged(deal.view(seat), shown))

    # -- playing ------------------------------------------------------------------------

    async def play(self) -> MatchOutcome:
        """Play deals until the match is over."""
        self.tell_seats()
        while not self.match.is_over:
            await self.play_deal()
        standings = self.game.standings(self.match)
        payouts = self.game.payouts(self.match)
        deals = self.match.deals_played
        self.tell(MatchEnded(standings.winners, standings.order, deals, payouts,
                             detail=standings))
        self.tell(Progress(Phase.MATCH_OVER))
        return MatchOutcome(
            table=LOCAL_TABLE, winners=standings.winners, deals=deals, audits_passed=deals,
            lives=standings.scores, payouts=payouts, game=self.game.name,
            standings=standings.order,
        )

    async def play_deal(self) -> None:
        """One deal: shuffle, deal, ask for every decision, settle."""
        if self.deck is None or self.game.reshuffles(self.match):
            self.tell(Progress(Phase.SHUFFLING, detail="shuffling in this process"))
            self.deck = list(self.game.pack(self.match))
            self.rng.shuffle(self.deck)
        self.tell(Progress(Phase.DEALING, detail="dealing in this process"))
        deal = self.game.new_deal(self.match, self.deck)
        self.tell(Progress(Phase.PLAYING))
        self.tell_views(deal, None)
        while not deal.is_over:
            action = await self.ask(deal)
            self.tell_views(deal, action)
        self.tell(Progress(Phase.AUDIT, detail="nothing to audit offline"))
        record = deal_record(deal)
        summary = self.game.finish_deal(self.match, deal)
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        scores = self.game.standings(self.match).scores
        self.tell(DealEnded(summary.points, change, scores, summary.reason, LOCAL_AUDIT,
                            detail=record))
        self.tell(Progress(Phase.DEAL_OVER))

    async def ask(self, deal: GameDeal) -> Any:
        """The accepted answer of the seat to act (applied to ``deal``)."""
        seat = deal.to_act
        assert seat is not None
        player = self.seats[seat].player
        for _ in range(MAX_REFUSALS):
            action = await player.decide(deal.view(seat))
            try:
                deal.apply(action)
            except self.game.illegal_action as err:
                reason = self.game.refusal_reason(err)
                player.notify(Notice(NoticeLevel.WARNING, f"refused: {reason}"))
                continue
            return action
        action = deal.default_action() or deal.legal_actions()[0]
        player.notify(Notice(NoticeLevel.ERROR, f"too many refused answers: {action} for you"))
        deal.apply(action)
        return action


def deal_record(deal: GameDeal) -> Any:
    """The game's own record of a finished deal (its ``result()``: Lodam's and Lorum's
    ``DealResult``), for ``DealEnded.detail``; ``None`` for a game that keeps none."""
    result = getattr(deal, "result", None)
    return result() if callable(result) else None


def standings_of(match: GameMatch, game: Game | None = None) -> tuple[int, ...]:
    """Seats best first, as ``game`` (default: Lodam) ranks them."""
    return (get_game(DEFAULT_GAME) if game is None else game).standings(match).order


async def play_local(
    *, options: Any, seats: Sequence[SeatPlan], seed: int | None = None,
    game: str = DEFAULT_GAME,
) -> MatchOutcome:
    """Play a whole match of ``game`` among ``seats`` in this process (see the module
    docstring). ``seed`` fixes the first dealer and every deck; ``None`` draws them fresh.
    """
    return await LocalTable(options, seats, seed, get_game(game)).play()
