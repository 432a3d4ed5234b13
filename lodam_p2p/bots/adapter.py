"""A bot at a table: the :class:`~lodam_p2p.player.Player` a table driver talks to.

Table drivers (the network session, the local table) await ``Player.decide`` and tell
players every public event. A bot answers synchronously and only needs its view, so the
adapter asks the bot through :func:`~lodam_p2p.bots.guard.ask` (its answer checked
against the engine's legal list). A failure is never silent: it becomes a
:class:`~lodam_p2p.bots.faults.BotFault` (kept in :attr:`BotPlayer.faults`, said as a
warning in the log with its traceback, listed as ``bot_errors`` in the ``--json``
result) and then, by default, the fallback type plays the seat from then on, as in the
arena. ``strict`` (``--strict-bots``) forfeits the seat at the first error instead.

The adapter also notes, from the events it is told, whether the table blamed its own
seat (a bot voted out for silence): a command that seated it then exits non-zero.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from lodam_p2p.bots.api import Bot, BotError, BotType
from lodam_p2p.bots.faults import BotFault, log_fault
from lodam_p2p.bots.guard import BotAnswerError, ask

if TYPE_CHECKING:
    from lodam_p2p.games import SeatView
    from lodam_p2p.player import TableEvent

log = logging.getLogger("lodam_p2p.bots")

#: Who plays a move when neither the bot nor its fallback can: the first legal answer.
FIRST_LEGAL = "first legal"


class _FirstLegal:
    """The last resort: the first legal answer."""

    def decide(self, view: SeatView) -> Any:
        """``view.legal[0]``."""
        return view.legal[0]


class BotForfeit(Exception):
    """A strict seat's bot failed: the seat gives up the match (``--strict-bots``)."""

    def __init__(self, fault: BotFault) -> None:
        super().__init__(f"{fault.message}; the seat forfeits (--strict-bots)")
        self.fault = fault


class BotPlayer:
    """Seats a bot: ``decide`` asks the bot (or its fallback) and reports its failures."""

    #: a bot needs no view between its turns (:class:`~lodam_p2p.player.Player`); a
    #: wrapper that narrates a bot's seat is a player of its own and gets them
    wants_views = False

    def __init__(self, name: str, bot: Bot[Any, Any], fallback: BotType | None = None,
                 seed: int = 0, *, strict: bool = False,
                 on_forfeit: Callable[[BotForfeit], None] | None = None,
                 on_fault: Callable[[BotFault], None] | None = None) -> None:
        self.name = name
        self.bot = bot
        self.fallback = fallback
        self.seed = seed
        self.strict = strict
        self.on_forfeit = on_forfeit  #: told once when a strict seat forfeits
        self.on_fault = on_fault  #: told of every fault (a screen's counter)
        #: Every failure of the bot (and of its fallback), in order.
        self.faults: list[BotFault] = []
        self.forfeit: BotForfeit | None = None
        self.me: int | None = None  #: this seat, once the table said
        self.blamed: str = ""  #: what the table blamed this seat for, if it did

    @property
    def errors(self) -> list[str]:
        """The failures, one line each (the older reading of :attr:`faults`)."""
        return [fault.message for fault in self.faults]

    def notify(self, event: TableEvent) -> None:
        """Bots decide from their view alone; only a blame of this seat is noted."""
        from lodam_p2p.player import Notice, NoticeLevel, SeatsChanged  # noqa: PLC0415

        if isinstance(event, SeatsChanged):
            self.me = event.me
        elif (isinstance(event, Notice) and event.level is NoticeLevel.ERROR
              and event.blamed is not None and event.blamed == self.me):
            self.blamed = event.text

    async def decide(self, view: SeatView) -> Any:
        """The bot's checked answer; after a failure, the fallback's (or the first legal)."""
        if self.forfeit is not None:
            raise self.forfeit
        try:
            return ask(self.bot, self.name, view)
        except BotAnswerError as err:
            self._report(err, view)
        fallback, self.fallback = self.fallback, None
        if fallback is not None:
            try:
                self.bot, self.name = fallback.make(view.seat, self.seed), fallback.name
                return ask(self.bot, self.name, view)
            except BotError as err:
                if isinstance(err, BotAnswerError):
                    self._report(err, view, FIRST_LEGAL)
                else:
                    log.warning("the fallback bot %r failed too: %s", fallback.name, err)
        self.bot = _FirstLegal()
        return view.legal[0]

    def _report(self, err: BotAnswerError, view: SeatView, instead: str = "") -> None:
        """Keep and say the failure; a strict seat forfeits here."""
        if not instead:
            instead = FIRST_LEGAL if self.fallback is None else self.fallback.name
        fault = err.fault("" if self.strict else instead)
        self.faults.append(fault)
        log_fault(log, fault)
        if self.on_fault is not None:
            self.on_fault(fault)
        if self.strict:
            self.forfeit = BotForfeit(fault)
            if self.on_forfeit is not None:
                self.on_forfeit(self.forfeit)
            raise self.forfeit


def bot_players(players: Iterable[object]) -> list[BotPlayer]:
    """The :class:`BotPlayer` of each of ``players``, unwrapped from the players that
    pace or narrate it (each keeps the one it wraps as ``inner``)."""
    found = []
    for outer in players:
        player, seen = outer, 0
        while not isinstance(player, BotPlayer) and hasattr(player, "inner") and seen < 8:
            player, seen = player.inner, seen + 1
        if isinstance(player, BotPlayer):
            found.append(player)
    return found


def faults_of(players: Iterable[object]) -> list[BotFault]:
    """Every fault of the bots among ``players``, seat by seat."""
    return [fault for bot in bot_players(players) for fault in bot.faults]


def forfeits_of(players: Iterable[object]) -> list[BotForfeit]:
    """The forfeits of the strict bots among ``players``."""
    return [bot.forfeit for bot in bot_players(players) if bot.forfeit is not None]
