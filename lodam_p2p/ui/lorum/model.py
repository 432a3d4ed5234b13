"""Everything the Lorum table screen shows, as plain data.

:class:`LorumTable` is to :func:`~lodam_p2p.ui.lorum.view.render_lorum` what
:class:`~lodam_p2p.ui.lodam.model.TableModel` is to the Lodam screen: the renderer reads it and
nothing else. Beyond the seat's :class:`~lodam_p2p.games.lorum.PlayerView` it holds what
a view does not say — the names, where the match stands (:class:`ScoreSheet`), the deal's
place in the schedule, the open panel, the person's prompt and cursor, the log. The app
fills it from the table's events; :meth:`ScoreSheet.from_match` reads a
:class:`~lodam_p2p.games.lorum.Match` when one is at hand.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lodam_p2p.games.lorum import Contract, DealResult, Match, Options, PlayerView, Scoring
from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.ui.glyphs import shown_name
from lodam_p2p.ui.lorum.choices import LorumPrompt, lorum_prompt
from lodam_p2p.ui.lorum.narrate import LorumNarrator
from lodam_p2p.ui.seat_model import SeatModel

#: What the screen says while the table works before the first view of a deal.
PHASE_WORDS = {
    Phase.LOBBY: "waiting for the seats to fill",
    Phase.DRAWING: "drawing the first dealer",
    Phase.SHUFFLING: "shuffling",
    Phase.DEALING: "dealing",
    Phase.AUDIT: "checking the deal",
}


class LorumPanel(enum.Enum):
    """What is drawn over the Lorum table, if anything."""

    NONE = "none"
    HELP = "help"  #: the keys
    SHEET = "sheet"  #: the score sheet
    RULES = "rules"  #: the rules page: the game and the current contract
    QUIT = "quit"  #: "leave the table?"
    DEAL_END = "deal_end"  #: this deal's points, the totals
    MATCH_END = "match_end"  #: standings and "play again"


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Where the match stands: points per contract and seat, totals, and the purse."""

    players: int
    contracts: tuple[Contract, ...]  #: the rows, in round order
    points: dict[Contract, tuple[int, ...]]  #: summed over the contract's deals so far
    dealt: dict[Contract, int]  #: deals of each contract finished so far
    per_contract: int  #: deals of each contract in the match (players × rounds)
    totals: tuple[int, ...]
    scoring: Scoring = Scoring.POINTS
    beans: tuple[int, ...] = ()
    pfennigs: tuple[int, ...] = ()
    pot: int = 0
    pot_pfennigs: int = 0

    @classmethod
    def empty(cls, options: Options, players: int) -> ScoreSheet:
        """The sheet before the first deal."""
        zero = (0,) * players
        beans = (20,) * players if options.scoring is Scoring.BEANS else ()
        pf = (1,) * players if options.scoring is Scoring.BEANS else ()
        return cls(players, options.contracts, {c: zero for c in options.contracts},
                   dict.fromkeys(options.contracts, 0), players * options.rounds, zero,
                   options.scoring, beans, pf)

    @classmethod
    def from_results(cls, options: Options, players: int, results: list[DealResult],
                     breaches: list[tuple[int, Contract]] | None = None) -> ScoreSheet:
        """The sheet after ``results`` (and proven ``breaches``, scored in their row)."""
        sheet = cls.empty(options, players)
        points = {c: list(p) for c, p in sheet.points.items()}
        for result in results:
            row = points[result.contract]
            for seat, gained in enumerate(result.points):
                row[seat] += gained
            sheet.dealt[result.contract] += 1
        for seat, contract in breaches or ():
            points[contract][seat] += options.breach_points
        totals = tuple(sum(points[c][s] for c in sheet.contracts) for s in range(players))
        return cls(players, sheet.contracts, {c: tuple(p) for c, p in points.items()},
                   sheet.dealt, sheet.per_contract, totals, options.scoring, sheet.beans,
                   sheet.pfennigs)

    @classmethod
    def from_match(cls, match: Match) -> ScoreSheet:
        """The sheet of a match as it stands (beans, pfennigs and pot included)."""
        sheet = cls.from_results(match.options, match.players, match.history,
                                 match.breaches)
        standings = match.standings()
        if standings.scoring is not Scoring.BEANS:
            return sheet
        return cls(sheet.players, sheet.contracts, sheet.points, sheet.dealt,
                   sheet.per_contract, sheet.totals, Scoring.BEANS, standings.beans,
                   standings.pfennigs, standings.pot, standings.pot_pfennigs)

    def worth(self) -> tuple[int, ...]:
        """Beans with each pfennig counted as 20 (beans scoring)."""
        return tuple(b + 20 * p for b, p in zip(self.beans, self.pfennigs, strict=True))


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What the end-of-deal panel tells: the deal's result and the sheet after it."""

    number: int  #: the deal's number in the match, from 1
    result: DealResult
    sheet: ScoreSheet
    audit: str = "passed"  #: the audit's verdict ("passed", or the breach found)
    void: bool = False  #: voided by a breach: only the offender scored
    round_over: int = 0  #: the round this deal completed, when more rounds follow (else 0)
    rounds: int = 1  #: rounds in the match


@dataclass(slots=True)
class LorumTable(SeatModel):
    """The Lorum client's state; see the module docstring. The seats, the notice, the
    status line and the log are the shell's (:class:`~lodam_p2p.ui.seat_model.SeatModel`)."""

    names: tuple[str, ...] = ()  #: every seat's name as the others see it
    view: PlayerView | None = None
    deal_number: int = 0  #: this deal's number in the match, from 1 (0: none yet)
    deals_total: int = 0  #: deals in the match (8 contracts × players × rounds)
    rounds: int = 1  #: rounds in the match
    sheet: ScoreSheet | None = None  #: the match before this deal (seats add this deal's)
    connected: tuple[bool, ...] = ()  #: per seat; missing seats count as connected
    prompt: LorumPrompt | None = None
    cursor: int = 0
    hint: int | None = None
    typed: str = ""
    panel: LorumPanel = LorumPanel.NONE
    rules_scroll: int = 0  #: first line of the rules page shown
    deal_end: DealSummary | None = None
    winners: tuple[int, ...] = ()  #: set when the match is over (MATCH_END)
    #: the table's standings, best first, when it sent them (seats that left are last)
    order: tuple[int, ...] = ()
    final: bool = False  #: the sheet already counts the deal on view (the match is over)

    # -- what the table tells, the same in every game ------------------------------------

    def seated(self) -> None:
        """Every seat's name and whether it is heard from, in seat order."""
        self.names = tuple(info.name for info in self.seats)
        self.connected = tuple(info.connected for info in self.seats)

    def progress_changed(self, event: Progress) -> None:
        """Before the first view of a deal, the status line says what the table does."""
        self.progress = event
        words = PHASE_WORDS.get(event.phase)
        if event.phase is Phase.PLAYING:
            self.status = ""
        elif words is not None and self.prompt is None:
            self.status = f"{event.detail or words}…"

    def notice_given(self, event: Notice) -> None:
        """Logged with the seats named; a warning or an error is the status line too."""
        SeatModel.notice_given(self, event)
        if self.notice is not None and event.level is not NoticeLevel.INFO:
            self.status = self.notice.text

    def seat_names(self) -> list[str]:
        """The names a notice's seats are said by."""
        return list(self.narrator().names)

    def name(self, seat: int) -> str:
        """``you`` for this seat, else the seat's name."""
        if seat == self.me:
            return "you"
        return shown_name(self.names[seat]) if seat < len(self.names) else f"seat {seat}"

    def short(self, seat: int, width: int = 10) -> str:
        """The seat's name cut to ``width`` characters, for the crowded middle."""
        name = self.name(seat)
        return name if len(name) <= width else name[: width - 1] + "…"

    def seat_name(self, seat: int) -> str:
        """The seat's name as written over its box (``You`` for this seat)."""
        return "You" if seat == self.me else self.name(seat)

    def is_connected(self, seat: int) -> bool:
        """Whether ``seat`` is heard from (unknown seats are)."""
        return seat >= len(self.connected) or self.connected[seat]

    # -- what the app calls -------------------------------------------------------------

    def narrator(self, players: int = 0) -> LorumNarrator:
        """Who speaks the log (seats not named yet are ``seat N``)."""
        names = [shown_name(self.names[s]) if s < len(self.names) else f"seat {s}"
                 for s in range(max(len(self.names), self.me + 1, players))]
        return LorumNarrator(names, self.me, self.glyphs)

    def show(self, view: PlayerView, number: int | None = None) -> None:
        """Take in the seat's latest view (after any action, anyone's); the log tells
        what changed. The first view after :meth:`deal_over` opens a new deal, numbered
        ``number`` (the match's ``turn + 1``) or else the next number."""
        old = self.view
        if self.between_deals or old is None:
            self.between_deals, old = False, None
            self.deal_number = number if number is not None else self.deal_number + 1
            if self.deal_end is not None:
                self.sheet = self.deal_end.sheet
            if self.panel is LorumPanel.DEAL_END:
                self.panel = LorumPanel.NONE
            self.log.extend(self.narrator(view.players).new_deal(self.deal_number, view))
        else:
            self.log.extend(self.narrator(view.players).changes(old, view))
        self.view = view
        self.trim_log()

    def ask(self, view: PlayerView) -> LorumPrompt:
        """Put the decision of ``view`` to the person."""
        self.show(view)
        prompt = lorum_prompt(view, self.glyphs, self.name)
        self.prompt, self.cursor, self.typed, self.hint = prompt, prompt.default, "", None
        return prompt

    def answered(self) -> None:
        """The decision was taken: no prompt until the next one."""
        self.prompt, self.typed, self.hint, self.status = None, "", None, ""

    def deal_over(self, summary: DealSummary) -> None:
        """The deal is scored: show the end-of-deal panel and keep the new sheet."""
        self.deal_end, self.between_deals = summary, True  # the sheet moves on at the next deal
        self.prompt = None
        self.panel = LorumPanel.DEAL_END
        self.log.append(("class:log.deal", f"Deal {summary.number} is over."))

    def match_over(self, winners: tuple[int, ...], sheet: ScoreSheet,
                   order: tuple[int, ...] = ()) -> None:
        """The round is over: standings (``order``: the table's, best first) and "play
        again"."""
        self.winners, self.sheet, self.panel = winners, sheet, LorumPanel.MATCH_END
        self.order = order
        self.final = True

    def toggle(self, panel: LorumPanel) -> None:
        """Open ``panel``, or close it when it is open (``s``, ``r``, ``?``)."""
        self.panel = LorumPanel.NONE if self.panel is panel else panel
        self.rules_scroll = 0
