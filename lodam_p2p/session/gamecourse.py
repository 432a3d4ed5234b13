"""The course of a match as the table's game runs it.

:class:`GameCourse` is a part the table machine owns and calls (its ``game_course``),
reaching the machine only through :class:`GameTable`: it asks the
:class:`~lodam_p2p.games.Game` for the match, the settlement of a deal the audit passed
and the standings, whichever hand machine played the deal. For a game whose actions
pass no card face down and that puts nobody out (Lorum) it also makes each deal's
:class:`~lodam_p2p.session.gamehand.GameHand` (keeping the deck a short deal carries on
with) and says what a proven offence costs
(:meth:`Game.breach <lodam_p2p.games.Game.breach>`: Lorum's ``breach_points``, and the
same dealer deals the same contract again). Nobody is put out: a table that cannot play
a deal through (the same seat or another proven at fault
:data:`~lodam_p2p.session.course.MAX_VOIDS` deals in a row — a seat that is gone, say)
ends early with the standings as they are, except that the seats at fault in that run
stand below every other seat and win nothing (leaving never pays: see
:meth:`MatchEnd.departed <lodam_p2p.session.ending.MatchEnd.departed>`).
"""

from __future__ import annotations

from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, Phase
from lodam_p2p.games import Game, GameMatch, Standings
from lodam_p2p.player import DealEnded, MatchEnded, Notice, NoticeLevel, TableEvent
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import deal_ended_line
from lodam_p2p.tableplan import MatchOutcome


class GameTable(Protocol):
    """What the game's course reads and calls on the table machine that owns it."""

    match: Any
    voids_in_row: int
    #: the hand machine this session deals with (a test seats a cheating one)
    hand_type: type[GameHand]
    game: Game | None
    hand: HandMachine | None  #: the hand under way (None between hands)
    roster: Roster | None
    seat: int | None
    identity: Ed25519PrivateKey
    entropy: Entropy
    hand_no: int
    audits: int
    blames: list[str]

    def now(self) -> float: ...
    def limit(self) -> float: ...
    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...


class GameCourse:
    """The game-interface half of a course (see the module docstring)."""

    def __init__(self, table: GameTable) -> None:
        self.table = table
        #: the encrypted deck the next deal may carry on with (a short deal's fair-deal
        #: hand)
        self.deck: Hand | None = None

    # --- the match -------------------------------------------------------------------

    def game_match(self) -> GameMatch:
        """The game's match (once the lot is drawn)."""
        match: GameMatch | None = self.table.match
        assert match is not None
        return match

    def game(self) -> Game:
        """The game of the table (set when the match begins)."""
        assert self.table.game is not None
        return self.table.game

    def begin(self, dealer: int) -> None:
        """The match of the roster's game, ``dealer`` dealing first."""
        t = self.table
        assert t.roster is not None
        t.match = self.game().start_match(t.roster.options, len(t.roster.sitters), dealer)

    def hand(self) -> GameHand:
        """This session's hand machine for the match's next deal."""
        t = self.table
        assert t.roster is not None
        r = t.roster
        deck = self.deck
        carried = deck if deck is not None and deck.phase is Phase.PLAY and not deck.opened() \
            else None
        hand = t.hand_type(self.game(), self.game_match(), tuple(s.pubkey for s in r.sitters),
                           t.seat, table_id=r.table_id, hand=t.hand_no,
                           identity=t.identity, entropy=t.entropy, now=t.now(),
                           timeout=t.limit(), carried=carried)
        self.deck = hand.fair if hand.short else None
        match = self.game_match()
        t.spectate(f"deal {match.deals_played + 1} (hand {t.hand_no}): "
                   f"dealer seat {match.dealer}")
        return hand

    def settle(self) -> None:
        """The audit passed: the deal counts (the game settles it, whichever hand machine
        played it)."""
        t = self.table
        assert t.hand is not None
        summary = self.game().finish_deal(self.game_match(), t.hand.full)
        scores = self.scores()
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        t.tell(DealEnded(summary.points, change, scores, summary.reason, "passed",
                         detail=summary.record))
        t.spectate(deal_ended_line(summary.reason, "passed", scores, word="scores"))

    def offence(self, blame: Blame) -> None:
        """A proven offence: the deal is void and costs the offender what the game says."""
        t = self.table
        t.voids_in_row += 1
        summary = self.game().breach(self.game_match(), blame.seat)
        scores = self.scores()
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        audit = f"failed: {blame}"
        t.tell(Notice(NoticeLevel.ERROR, summary.reason, blame.seat))
        t.tell(DealEnded(summary.points, change, scores, summary.reason, audit, void=True))
        t.spectate(deal_ended_line(summary.reason, audit, scores, word="scores"))

    # --- standings -----------------------------------------------------------------------

    def standings(self) -> Standings:
        """The game's standings as they are."""
        return self.game().standings(self.game_match())

    def scores(self) -> tuple[int, ...]:
        """Per seat, the game's running score."""
        return self.standings().scores

    def outcome(self, table: str, deals: int, reason: str,
                standings: Standings) -> MatchOutcome:
        """The outcome, told to the player as the match's end. ``standings``: the game's,
        with the seats that left below those that stayed (leaving never pays)."""
        t, game = self.table, self.game()
        winners = standings.winners
        payouts = game.payouts(self.game_match())
        t.tell(MatchEnded(winners, standings.order, deals, payouts, reason,
                          detail=standings))
        return MatchOutcome(table, winners, deals, t.audits, tuple(t.blames),
                            standings.scores, payouts, game=game.name,
                            standings=standings.order)
