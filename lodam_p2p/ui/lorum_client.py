"""A person at an offline Lorum table: the Lorum screen, the keyboard and the engine.

:class:`LorumClient` runs a :class:`~lodam_p2p.games.lorum.Match` in this process — decks
shuffled from the seed, the first dealer by lot from the same generator — with the person
at seat 0 and a bot at every other seat (each asked through ``view.legal``). The person's
decisions are put on the screen (:class:`~lodam_p2p.ui.lorum_model.LorumTable`, drawn by
:func:`~lodam_p2p.ui.lorum_view.render_lorum`) and answered by keys
(:class:`~lodam_p2p.ui.lorum_keys.LorumKeys`). After each deal the end-of-deal panel
waits for the person; after the round, the standings offer "play again", which starts a
new match with the next seed.

This is the offline driver until the game interface's table driver plays Lorum.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from lodam_p2p.games.lorum import Action, Match, Options, PlayerView
from lodam_p2p.ui.app import TableApp
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.german import SUIT_STYLE_RULES
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lorum_keys import LorumKeys
from lodam_p2p.ui.lorum_model import DealSummary, LorumPanel, LorumTable, ScoreSheet
from lodam_p2p.ui.lorum_view import render_lorum

log = logging.getLogger(__name__)

#: The person's seat.
ME = 0


class LorumBot(Protocol):
    """A bot seat: any legal action of ``view.legal``."""

    def decide(self, view: Any) -> Any:
        """The bot's action for ``view``."""


#: Makes the bot of one seat for one match: (seat, seed) → bot.
BotMaker = Callable[[int, int], LorumBot]


@dataclass(slots=True)
class LorumSettings:
    """The table and how the screen looks."""

    options: Options
    names: tuple[str, ...]  #: every seat's name, the person's first
    bots: tuple[BotMaker, ...]  #: one per bot seat (seats 1 …)
    seed: int | None = None
    delay: float = 0.0  #: seconds before each bot action
    ascii: bool = False
    no_color: bool = False
    hint: Callable[[PlayerView], Action] | None = None
    input: Input | None = None  #: for tests: a pipe input
    output: Output | None = None  #: for tests: a dummy output
    clock: Callable[[], float] = field(default=time.monotonic)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.names)


class LorumClient:
    """One person's session at an offline Lorum table; see the module docstring."""

    def __init__(self, settings: LorumSettings) -> None:
        self.settings = settings
        self.matches: list[Match] = []  #: the matches played to the end
        self._played = 0
        self._pending: asyncio.Future[Action] | None = None
        self._read = asyncio.Event()  #: set once the end-of-deal panel is closed
        self._task: asyncio.Task[Match] | None = None
        self.model, self.keys = self._fresh_table()
        self.app = TableApp(None, self, no_color=settings.no_color, input=settings.input,
                            output=settings.output, clock=settings.clock, draw=self.draw,
                            style_rules=SUIT_STYLE_RULES)

    def _fresh_table(self) -> tuple[LorumTable, LorumKeys]:
        s = self.settings
        model = LorumTable(glyphs=Glyphs(ascii=s.ascii), table="offline", names=s.names,
                           me=ME)
        keys = LorumKeys(model, answer=self._answer, leave=self.leave,
                         play_again=self.play_again, hint=s.hint)
        return model, keys

    # -- the screen ---------------------------------------------------------------------

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The Lorum screen at this size."""
        return render_lorum(self.model, width, height, now)

    def key(self, name: str) -> None:
        """A key from the application."""
        self.keys.key(name)
        if self.model.panel is LorumPanel.NONE:
            self._read.set()
        self.app.invalidate()

    def interrupt(self) -> None:
        """Ctrl-C: leave at once."""
        self.leave()

    def leave(self) -> None:
        """The person leaves the table."""
        self.app.exit()

    def play_again(self) -> None:
        """A new match at the same table, with the next seed."""
        if self._task is not None and not self._task.done():
            return
        self.model, self.keys = self._fresh_table()
        self._begin()
        self.app.invalidate()

    async def run(self) -> list[Match]:
        """Play until the person leaves; the matches finished."""
        self._begin()
        try:
            await self.app.run()
        finally:
            task, self._task = self._task, None
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        return self.matches

    def _begin(self) -> None:
        self._task = asyncio.create_task(self._match(self._played))
        self._played += 1
        self._task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Match]) -> None:
        if task.cancelled():
            return
        err = task.exception()
        if err is None:
            self.matches.append(task.result())
            return
        log.error("the table stopped", exc_info=err)
        self.model.status = f"The table stopped: {err or type(err).__name__}. Press q to leave."
        self.app.invalidate()

    # -- the table ----------------------------------------------------------------------

    async def _match(self, number: int) -> Match:
        s = self.settings
        seed = None if s.seed is None else s.seed + number
        rng = random.Random(seed)
        match = Match.start(s.options, s.players, first_dealer=rng.randrange(s.players))
        bots = {seat: make(seat, (seed or 0) * 1000 + seat)
                for seat, make in enumerate(s.bots, start=1)}
        self.model.deals_total = len(match.schedule)
        self.model.sheet = ScoreSheet.empty(s.options, s.players)
        while not match.is_over:
            await self._deal(match, bots, rng)
        self.model.match_over(tuple(match.winners), ScoreSheet.from_match(match))
        self.app.invalidate()
        log.info("match over: winners %s, totals %s", match.winners, match.totals)
        return match

    async def _deal(self, match: Match, bots: dict[int, LorumBot], rng: random.Random) -> None:
        plan = match.plan()
        deck = None
        if plan.fresh:
            deck = list(plan.pack)
            rng.shuffle(deck)
        number = match.turn + 1
        deal = match.new_deal(deck)
        self._show(deal.view(ME), number)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if seat == ME:
                action = await self._ask(view)
            else:
                if self.settings.delay:
                    await asyncio.sleep(self.settings.delay)
                action = _bot_action(bots[seat], view, rng)
            deal.apply(action)
            self._show(deal.view(ME))
        result = match.finish_deal(deal)
        self._read.clear()
        self.model.deal_over(DealSummary(number, result, ScoreSheet.from_match(match)))
        self.app.invalidate()
        await self._read.wait()

    def _show(self, view: PlayerView, number: int | None = None) -> None:
        self.model.show(view, number)
        self.app.invalidate()

    async def _ask(self, view: PlayerView) -> Action:
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self._pending = future
        self.model.ask(view)
        self.app.invalidate()
        try:
            return await future
        finally:
            self._pending = None

    def _answer(self, action: Action) -> None:
        if self._pending is not None and not self._pending.done():
            self._pending.set_result(action)


def _bot_action(bot: LorumBot, view: PlayerView, rng: random.Random) -> Action:
    """The bot's answer; a failing bot or an answer the rules forbid is logged, and a
    random legal action is played in its place (the table goes on)."""
    try:
        action = bot.decide(view)
    except Exception:
        log.exception("the bot of seat %d failed; a random legal action instead", view.seat)
        return rng.choice(view.legal)
    if action not in view.legal:
        log.error("the bot of seat %d answered %r, not a legal action; a random one instead",
                  view.seat, action)
        return rng.choice(view.legal)
    return action  # type: ignore[no-any-return]


def bot_makers(types: Sequence[Any]) -> tuple[BotMaker, ...]:
    """Bot makers from registered bot types (each with ``make(seat, seed)``)."""
    return tuple((lambda seat, seed, t=t: t.make(seat, seed)) for t in types)


async def run_lorum(settings: LorumSettings) -> list[Match]:
    """Run the Lorum table screen until the person leaves (see :class:`LorumClient`)."""
    return await LorumClient(settings).run()
