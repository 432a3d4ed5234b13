"""The person at a Lorum seat: a :class:`~lodam_p2p.player.Player` answered from the keyboard.

Any table driver — the local table, or the network session — tells :meth:`LorumPlayer.
notify` every event and awaits :meth:`LorumPlayer.decide`; the player keeps the screen's
model (:class:`~lodam_p2p.ui.lorum.model.LorumTable`) and the score sheet
(:class:`~lodam_p2p.ui.lorum.ledger.LorumLedger`) from those events alone, so the same
screen serves both drivers.

Steps without a choice — the next card of a Quartet run, a pass when nothing fits the
rows, a blind play — are answered at once: a table asks for them (each is a message from
the seat that makes it), but the person has nothing to decide.

:attr:`LorumPlayer.hold` is cleared while the end-of-deal (or end-of-round) panel is
open. The bots seated beside the person wait on it (:mod:`~lodam_p2p.ui.pacing`), and the
events of the next deal are kept back until the person closes the panel, so what they
are reading does not vanish under them. At a networked table, where every seat's silence
is timed, the person's own decision waits no longer than ``hold_limit`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from lodam_p2p.games.lorum import Action, Contract, DealResult, Decision, Pass, PlayerView
from lodam_p2p.player import DealEnded, MatchEnded, TableEvent, ViewChanged
from lodam_p2p.ui.glyphs import name_seats
from lodam_p2p.ui.lorum.ledger import LorumLedger, offenders
from lodam_p2p.ui.lorum.model import DealSummary, LorumPanel, LorumTable
from lodam_p2p.ui.seat_model import TableEvents
from lodam_p2p.ui.seated import SeatedPerson, describe

log = logging.getLogger(__name__)


def forced(view: PlayerView) -> bool:
    """Whether the seat's step leaves no choice: a Quartet run card, a blind play, or a
    pass when no card fits the rows."""
    if len(view.legal) != 1:
        return False
    if view.awaiting is Decision.PLAY:
        blind = view.options.red_king_blind and view.contract is Contract.RED_KING
        return view.awaiting_card is not None or blind
    return view.awaiting is Decision.LAY and isinstance(view.legal[0], Pass)


def dealt_again(old: PlayerView, new: PlayerView) -> bool:
    """Whether ``new`` is not a later moment of ``old``'s deal but that deal begun anew
    (or another deal): another contract or dealer, or fewer cards out of play."""
    return (new.contract is not old.contract or new.dealer != old.dealer
            or len(new.played) < len(old.played) or len(new.lays) < len(old.lays))


class LorumPlayer(SeatedPerson[Action], TableEvents):
    """A person at a Lorum table; see the module docstring. The model takes in what every
    game keeps of the table (:class:`~lodam_p2p.ui.seat_model.SeatModel`), the player
    the views and the ends of deals and match, which write the score sheet."""

    def __init__(self, model: LorumTable, *, hold_limit: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(model)
        self.model = model
        self.hold_limit = hold_limit
        self.clock = clock
        self.ledger: LorumLedger | None = None
        self._held: list[TableEvent] = []

    # -- what the table tells -----------------------------------------------------------

    def notify(self, event: TableEvent) -> None:
        """Take in ``event`` (kept back while the person reads the end of a deal)."""
        if not self.hold.is_set() and isinstance(event, ViewChanged | DealEnded | MatchEnded):
            self._held.append(event)
            return
        self._take(event)
        self.changed()

    def _take(self, event: TableEvent) -> None:
        """Take in one event; a fault of the screen is logged, never raised into the
        table driver (the match goes on, and the next view redraws the table)."""
        log.info("event %s", _describe(event))
        try:
            self._apply(event)
        except Exception:
            log.exception("the screen could not take in %s", _describe(event))
            self.model.status = "The screen missed an event (see the log); play goes on."

    def _apply(self, event: TableEvent) -> None:
        now = self.clock()
        self.model.take(event, now)
        self.take(event, now)

    def view_changed(self, event: ViewChanged, now: float) -> None:
        """Show the view (see :meth:`_view`)."""
        self._view(event.view, event.deal)

    def _view(self, view: PlayerView, told: int = 0) -> None:
        """Take in a view; ``told`` is the table's number of its deal (0: not told)."""
        model = self.model
        if self.ledger is None:
            self.ledger = LorumLedger(view.options, view.players)
            model.deals_total = self.ledger.deals_total
            model.rounds = view.options.rounds
            model.sheet = self.ledger.sheet()
        old = model.view
        if old is not None and not model.between_deals and dealt_again(old, view):
            model.between_deals = True  # the next view opens a deal
            if view.contract is old.contract and view.dealer == old.dealer:
                # a seat came back and the deal in progress was dealt again: same number
                model.log.append(("class:log.warning", "The deal is dealt again."))
                model.show(view, model.deal_number)
                return
        if told and old is not None and told != model.deal_number:
            model.between_deals = True  # the table is at another deal than the screen
        model.show(view, told or None)

    def deal_ended(self, event: DealEnded) -> None:
        """Score the deal on the sheet and open the end-of-deal panel (the bots hold)."""
        model, view = self.model, self.model.view
        if view is None or self.ledger is None:
            return  # a deal this seat never saw begin: nothing to draw
        result = event.detail if isinstance(event.detail, DealResult) else DealResult(
            view.contract, tuple(event.points), tuple(view.out), view.announced)
        if event.void:  # the same dealer deals the same contract again: one deal more
            for seat in offenders(event.counter_change, event.points):
                self.ledger.breach(seat, view.contract)
            model.deals_total += 1
        else:
            self.ledger.deal_ended(result, view.dealer)
        model.status = ""
        model.deal_over(DealSummary(model.deal_number, result, self.ledger.sheet(),
                                    event.audit, event.void, self.ledger.round_over(),
                                    view.options.rounds))
        self.hold.clear()

    def match_ended(self, event: MatchEnded) -> None:
        """Standings and "play again" (the bots hold)."""
        model = self.model
        if event.reason:  # the table's sentence numbers the seats: the screen names them
            reason = name_seats(event.reason, model.name)
            model.log.append(("class:log.error", f"The match ended early: {reason}"))
            model.status = reason[:1].upper() + reason[1:]
        if self.ledger is not None:
            model.match_over(tuple(event.winners), self.ledger.sheet(),
                             tuple(event.standings))
        else:  # it ended before the first deal: there is no sheet to show
            model.winners, model.panel = tuple(event.winners), LorumPanel.MATCH_END
        self.hold.clear()

    # -- the person's side --------------------------------------------------------------

    def release(self) -> None:
        """The person closed the end-of-deal panel: take in what was kept back."""
        if self.hold.is_set() or self.model.panel is LorumPanel.MATCH_END:
            return
        self.hold.set()
        held, self._held = self._held, []
        for event in held:
            self._take(event)
        self.changed()

    async def decide(self, view: Any) -> Any:
        """Wait for the person to finish reading, then answer a forced step at once or
        put the decision on the screen (``view``: a Lorum ``PlayerView``; the answer a
        Lorum ``Action``, typed loosely as the :class:`~lodam_p2p.player.Player` protocol
        still types answers as Lodam's)."""
        return await self._decide(view)

    async def _decide(self, view: PlayerView) -> Action:
        if not self.hold.is_set():
            # asyncio.timeout, not wait_for: 3.11's wait_for drops a cancel that comes
            # as the person lets go, and the stopped seat would go on to ask
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.hold_limit):
                    await self.hold.wait()
            if not self.hold.is_set():  # a timed table cannot wait longer
                self.model.panel = LorumPanel.NONE
                self.release()
        if forced(view):
            return view.legal[0]
        return await self.ask(view)


def _describe(event: TableEvent) -> str:
    """A short line for the file log (a view is summed up, not dumped)."""
    return describe(event, lambda v: f"{v.contract.value} to_act={v.to_act} "
                                      f"awaiting={v.awaiting}")
