"""Playing one arena match: bots at seats, the engine in between, a fallback on failure.

The game is the configuration's (:attr:`ArenaConfig.rules`), reached through the game
interface only. Every decision goes the same way: the seat's bot gets its view, its
answer is checked against the engine's legal list and then applied to the engine,
which checks it once more. A bot that raises, answers wrongly or thinks longer than its
budget (:mod:`lodam_p2p.bots.budget`, measured by the player's injected clock) is
reported (a :class:`~lodam_p2p.arena.summary.BotFailure` naming kind, bot, seat,
decision and move) and its seat is played by the fallback bot for the rest of the
match; the match goes on. Every decision's time is recorded for the percentiles.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lodam_p2p.arena.chance import bot_seed, first_dealer, shuffled
from lodam_p2p.arena.config import ArenaConfig, bot_type_name
from lodam_p2p.arena.summary import BotFailure, MatchRecord
from lodam_p2p.bots.api import Bot
from lodam_p2p.bots.faults import ILLEGAL, OVER_BUDGET
from lodam_p2p.bots.guard import BotAnswerError, ask, ask_timed, decision_of, describe
from lodam_p2p.bots.registry import BotRegistry
from lodam_p2p.games import Game, GameDeal, GameMatch, SeatView, get_game


class FirstLegal:
    """The last resort when no fallback bot is installed: the first legal answer."""

    def decide(self, view: SeatView) -> Any:
        """``view.legal[0]``."""
        return view.legal[0]


@dataclass(slots=True)
class SeatBot:
    """The bot playing one seat, and what to do when it fails."""

    name: str
    bot: Bot[Any, Any]
    failed: bool = False
    budget_s: float | None = None  #: seconds per decision; ``None`` once the fallback plays


@dataclass(slots=True)
class _Tally:
    """Running figures of one match, per seat."""

    seats: int
    lost: list[int] = field(default_factory=list)
    gained: list[int] = field(default_factory=list)
    deals_in: list[int] = field(default_factory=list)
    failures: list[BotFailure] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lost = [0] * self.seats
        self.gained = [0] * self.seats
        self.deals_in = [0] * self.seats


class MatchPlayer:
    """Plays the matches of one arena configuration (one per process)."""

    def __init__(self, config: ArenaConfig, registry: BotRegistry,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.config = config
        self.registry = registry
        self.game: Game = get_game(config.game)
        self.clock = clock  #: measures each decision against the bot's budget

    def play(self, group: int, rotation: int, variant: int = 0) -> MatchRecord:
        """Play the match at (group, rotation, variant) of the schedule."""
        config = self.config
        table = config.table(variant)
        n = len(table)
        seat_bots = tuple(table[(seat + rotation) % n] for seat in range(n))
        seats = [self._make(name, group, rotation, seat) for seat, name in enumerate(seat_bots)]
        game = self.game
        match = game.start_match(config.table_options, n, first_dealer(config.seed, group, n))
        tally = _Tally(n)
        deals = 0
        deck: list[Any] = []
        while not match.is_over and deals < config.max_deals:
            if not deck or game.reshuffles(match):  # else the stack carries over (Lorum)
                deck = shuffled(game.pack(match), config.seed, group, deals)
            deal = game.new_deal(match, deck)
            self._play_deal(deal, seats, group, rotation, tally)
            self._score(match, deal, tally)
            deals += 1
        standings = game.standings(match)
        return MatchRecord(
            group=group,
            rotation=rotation,
            variant=variant,
            seat_bots=seat_bots,
            winners=standings.winners if match.is_over else (),
            ranks=standings.ranks,
            counters_lost=tuple(tally.lost),
            counters_gained=tuple(tally.gained),
            deals_in=tuple(tally.deals_in),
            deals=deals,
            finished=match.is_over,
            candidate=(-rotation) % n if config.compare else None,
            failures=tuple(tally.failures),
            decision_times=tuple((name, tuple(times)) for name, times in tally.times.items()),
        )

    def _make(self, name: str, group: int, rotation: int, seat: int) -> SeatBot:
        bot_type = self.registry.get(bot_type_name(name))
        seed = bot_seed(self.config.seed, group, rotation, seat)
        options = self.config.options_of(name)
        budget = self.config.budget_s or bot_type.for_game(self.game.name).budget
        return SeatBot(name, bot_type.make(seat, seed, options, game=self.game.name),
                       budget_s=budget)

    def _score(self, match: GameMatch, deal: GameDeal, tally: _Tally) -> None:
        """Apply the deal to the match and count what each seat lost and gained."""
        for seat, dealt in enumerate(self.game.dealt_in(match)):
            if dealt:
                tally.deals_in[seat] += 1
        summary = self.game.finish_deal(match, deal)
        for seat in range(len(tally.lost)):
            tally.lost[seat] += summary.penalty[seat]
            tally.gained[seat] += summary.gain[seat]

    def _play_deal(
        self, deal: GameDeal, seats: list[SeatBot], group: int, rotation: int, tally: _Tally
    ) -> None:
        refused = self.game.illegal_action
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None  # a deal that is not over awaits someone
            view = deal.view(seat)
            player = seats[seat]
            action: Any = None
            try:
                action = self._ask(player, view, tally)
                deal.apply(action)
            except (BotAnswerError, refused) as err:
                if not isinstance(err, BotAnswerError):
                    err = BotAnswerError(player.name, seat, describe(action), str(err),
                                         kind=ILLEGAL, decision=decision_of(view))
                tally.failures.append(BotFailure(seat, player.name, str(err), err.kind,
                                                 err.decision, err.trace))
                self._fall_back(player, seat, group, rotation)
                deal.apply(self._rescue(player, view))

    def _ask(self, player: SeatBot, view: SeatView, tally: _Tally) -> Any:
        """The seat's bot's checked answer; its time kept while the bot itself plays."""
        if player.failed:
            return ask(player.bot, player.name, view)
        times = tally.times.setdefault(player.name, [])
        try:
            action, seconds = ask_timed(player.bot, player.name, view, clock=self.clock,
                                        budget_s=player.budget_s)
        except BotAnswerError as err:
            if err.kind == OVER_BUDGET:
                times.append(err.seconds)
            raise
        times.append(seconds)
        return action

    def _fall_back(self, player: SeatBot, seat: int, group: int, rotation: int) -> None:
        """Put the fallback bot in the failed bot's place for the rest of the match."""
        fallback = self.registry.fallback(bot_type_name(player.name), seat)
        if fallback is not None and not fallback.plays(self.game.name):
            fallback = None
        seed = bot_seed(self.config.seed, group, rotation, seat, "fallback")
        player.bot = (FirstLegal() if fallback is None
                      else fallback.make(seat, seed, game=self.game.name))
        player.failed = True

    @staticmethod
    def _rescue(player: SeatBot, view: SeatView) -> Any:
        """The fallback's answer, or the first legal one if the fallback fails too."""
        try:
            return ask(player.bot, "fallback", view)
        except BotAnswerError:
            player.bot = FirstLegal()
            return view.legal[0]
