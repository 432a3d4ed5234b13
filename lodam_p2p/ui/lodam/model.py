"""Everything the table screen shows, as plain data: the client's model.

The :class:`TableModel` takes the table's events (:meth:`TableModel.apply`) and the
person's questions (:meth:`TableModel.ask`), and keeps what the renderer needs: the
seats, the latest view, the progress line, the log, the open panel, the cursor. It knows
nothing of terminals; the renderer reads it and the key handler changes it. Times are
passed in (``now``), so the trump's show time under ``trump_memory`` is testable.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lodam_p2p.games.lodam import PlayerView
from lodam_p2p.player import DealEnded, MatchEnded, NoticeLevel, Phase, ViewChanged
from lodam_p2p.ui.glyphs import name_seats, shown_name
from lodam_p2p.ui.lodam.choices import Prompt, prompt_for
from lodam_p2p.ui.lodam.narrate import Narrator
from lodam_p2p.ui.seat_model import SeatModel


class Panel(enum.Enum):
    """What is drawn over the table, if anything."""

    NONE = "none"
    HELP = "help"  #: the keys
    LAST_TRICK = "last_trick"  #: the last completed trick
    RULES = "rules"  #: the rules page: the game, and what this deal asks
    QUIT = "quit"  #: "leave the table?"
    DEAL_END = "deal_end"  #: who went out or lost a counter, every seat's points
    MATCH_END = "match_end"  #: standings, play again


@dataclass(slots=True)
class TableModel(SeatModel):
    """The client's state; see the module docstring. The seats, the progress line, the
    notice and the log are the shell's (:class:`~lodam_p2p.ui.seat_model.SeatModel`)."""

    view: PlayerView | None = None
    deal_number: int = 0
    deal_end: DealEnded | None = None
    ended_deal: int = 0  #: the number of the deal ``deal_end`` tells of
    match_end: MatchEnded | None = None
    trump_seen_at: float | None = None  #: when this deal's trump card was first shown
    prompt: Prompt | None = None
    cursor: int = 0
    typed: str = ""  #: a card being typed ("q" of "qs")
    hint: int | None = None  #: the item the heuristic bot would choose
    panel: Panel = Panel.NONE
    previous_panel: Panel = Panel.NONE  #: the panel under the "leave the table?" question

    # -- names --------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """The name of ``seat`` ("you" for this seat)."""
        if seat == self.me:
            return "you"
        if seat < len(self.seats):
            return shown_name(self.seats[seat].name)
        return f"seat {seat}"

    def names(self) -> list[str]:
        """Every seat's name as others see it."""
        count = self.view.players if self.view else len(self.seats)
        return [shown_name(self.seats[s].name) if s < len(self.seats) else f"seat {s}"
                for s in range(count)]

    def narrator(self) -> Narrator:
        """Who speaks the log."""
        return Narrator(self.names(), self.me, self.glyphs)

    def reset_match(self) -> None:
        """Forget the finished match before playing again, its seats too: the next
        match's seats are the host's to give (until its list comes the waiting room shows
        none, not the last match's)."""
        self.view = self.progress = self.notice = None
        self.seats, self.wanted = (), 0
        self.deal_end, self.match_end, self.trump_seen_at = None, None, None
        self.deal_number, self.between_deals = 0, True
        self.panel = self.previous_panel = Panel.NONE
        self.answered()
        self.add_log("class:log.deal", "A new match begins.")

    @property
    def out(self) -> bool:
        """Whether this seat is out of the match (it only watches now)."""
        view, end = self.view, self.deal_end
        if view is None or self.me >= view.players:
            return False
        if end is not None and not view.options.winning and end.lives[self.me] <= 0:
            return True
        return not view.active[self.me] and not self.between_deals

    # -- events -------------------------------------------------------------------------

    #: Take in one event from the table driver, at ``now`` (the shell's :meth:`take`).
    apply = SeatModel.take

    def seat_names(self) -> list[str]:
        """The names a notice's seats are said by."""
        return self.names()

    def match_ended(self, event: MatchEnded) -> None:
        """Standings and "play again"; the log says who won, and why it ended early."""
        self.match_end = event
        self.open_panel(Panel.MATCH_END)
        if event.reason:
            self.add_log("class:log.error", self.verdict(event) + ".")
        winners = " and ".join(self.name(s) for s in event.winners)
        self.add_log("class:log.deal", f"The match is over after {event.deals} deals: "
                                       f"{winners} {'win' if 'you' in winners else 'wins'}.")

    def verdict(self, end: MatchEnded) -> str:
        """Why the match ended early, with the seats named ("Moll did not answer three
        times: the match ends; you win"); empty when it ended by play."""
        if not end.reason:
            return ""
        text = name_seats(end.reason, self.name)
        if end.winners:
            winners = " and ".join(self.name(s) for s in end.winners)
            verb = "win" if winners == "you" or len(end.winners) > 1 else "wins"
            text += f"; {winners} {verb}"
        return text[0].upper() + text[1:]

    def view_changed(self, event: ViewChanged, now: float) -> None:
        """Open a deal, or log what changed in it."""
        new, old = event.view, self.view
        told = event.deal  # the table's number, the same at every seat (0: count here)
        if self.between_deals or old is None or (told and told != self.deal_number):
            self.between_deals, self.deal_number = False, told or self.deal_number + 1
            self.trump_seen_at, old = None, None
            self.log.extend(self.narrator().new_deal(self.deal_number, new))
        if new.trump_card is not None and self.trump_seen_at is None:
            self.trump_seen_at = now
        if old is not None:
            self.log.extend(self.narrator().changes(old, new, event.last_action))
        self.view = new
        self.trim_log()

    def deal_ended(self, event: DealEnded) -> None:
        """Open the end-of-deal panel (unless this seat only watches) and log the end."""
        watching = self.out  # out before this deal: its end goes to the log, no panel
        self.deal_end, self.between_deals = event, True
        self.ended_deal = self.deal_number
        self.prompt = None
        if not watching:
            self.open_panel(Panel.DEAL_END)
        reason = name_seats(event.reason, self.name)
        self.add_log("class:log.deal", reason[:1].upper() + reason[1:] + ".")
        for seat, change in enumerate(event.counter_change):
            if change:
                word = "gains" if change > 0 else "loses"
                if seat == self.me:
                    word = word[:-1]
                self.add_log("class:log.deal", f"{self.name(seat).capitalize()} {word} a counter.")
        if event.audit != "passed" and not event.audit.startswith("not needed"):
            self.add_log("class:log.error", f"Audit: {name_seats(event.audit, self.name)}")

    def open_panel(self, panel: Panel) -> None:
        """Open ``panel`` (under the "leave the table?" question, if that is open)."""
        if self.panel is Panel.QUIT:
            self.previous_panel = panel
        else:
            self.panel = panel

    # -- questions ----------------------------------------------------------------------

    def ask(self, view: PlayerView) -> Prompt:
        """Put the decision of ``view`` to the person."""
        self.view = view
        prompt = prompt_for(view, self.glyphs, self.name)
        self.prompt, self.cursor, self.typed, self.hint = prompt, prompt.default, "", None
        return prompt

    def answered(self) -> None:
        """The decision was taken: no prompt until the next one."""
        self.prompt, self.typed, self.hint, self.status = None, "", None, ""
        self.notice = None

    def trump_visible(self, now: float) -> bool:
        """Whether the trump may be named and marked now (always, unless ``trump_memory``)."""
        view = self.view
        if view is None or view.trump_card is None:
            return False
        if not view.options.trump_memory:
            return True
        seen = self.trump_seen_at
        return seen is not None and now - seen < view.options.trump_show_seconds

    def waiting_line(self) -> str:
        """What the table is doing, for the status line."""
        progress = self.progress
        if progress is None:
            return "waiting for the table…"
        if progress.phase is Phase.PLAYING:
            return self._turn_line()
        waits = ", ".join(self.name(s) for s in progress.waiting_for)
        text = str(progress.phase.value).replace("_", " ")
        if waits:
            text += f": waiting for {waits}"
        if progress.detail:
            text += f" ({progress.detail})"
        return text

    def _turn_line(self) -> str:
        view = self.view
        if view is None or view.to_act is None:
            return ""
        if view.to_act == self.me:
            return "your turn"
        decision = str(view.awaiting.value) if view.awaiting else "act"
        return f"waiting for {self.name(view.to_act)} to {decision}"

    def notice_is_error(self) -> bool:
        """Whether the latest notice is an error (a blame, a failed audit)."""
        return self.notice is not None and self.notice.level is NoticeLevel.ERROR
