"""The course of a match as the table's game runs it.

A mixin of :class:`~lodam_p2p.session.course.Course`: it asks the
:class:`~lodam_p2p.games.Game` for the match, the settlement of a deal the audit passed
and the standings, whichever hand machine played the deal. For a game whose actions
pass no card face down and that puts nobody out (Lorum) it also makes each deal's
:class:`~lodam_p2p.session.gamehand.GameHand` and says what a proven offence costs
(:meth:`Game.breach <lodam_p2p.games.Game.breach>`: Lorum's ``breach_points``, and the
same dealer deals the same contract again). Nobody is put out: a table that cannot play
a deal through (the same seat or another proven at fault
:data:`~lodam_p2p.session.course.MAX_VOIDS` deals in a row — a seat that is gone, say)
ends early with the standings as they are, except that the seats at fault in that run
stand below every other seat and win nothing (leaving never pays: see
:meth:`Course.departed <lodam_p2p.session.course.Course.departed>`).
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, Phase
from lodam_p2p.games import Game, GameMatch, Standings
from lodam_p2p.player import DealEnded, MatchEnded, Notice, NoticeLevel, TableEvent
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import SpectatorLog, deal_ended_line
from lodam_p2p.tableplan import MatchOutcome


class GameCourse:
    """The game-interface half of a course (see the module docstring)."""

    #: the hand machine this session deals with (a test seats a cheating one)
    hand_type: type[GameHand] = GameHand
    game: Game | None
    match: Any
    hand: Any
    roster: Roster | None
    seat: int | None
    identity: Ed25519PrivateKey
    entropy: Entropy
    spectator: SpectatorLog | None
    hand_no: int
    audits: int
    voids_in_row: int
    blames: list[str]
    last_blamed: int | None
    #: the encrypted deck the next deal may carry on with (a short deal's fair-deal hand)
    deck: Hand | None = None

    def tell(self, event: TableEvent) -> None:
        raise NotImplementedError

    def now(self) -> float:
        raise NotImplementedError

    def spectate(self, line: str) -> None:
        raise NotImplementedError

    def _limit(self) -> float:
        raise NotImplementedError

    # --- the match -------------------------------------------------------------------

    def _game_match(self) -> GameMatch:
        assert self.match is not None
        return self.match  # type: ignore[no-any-return]

    def _table_game(self) -> Game:
        """The game of the table (set when the match begins)."""
        assert self.game is not None
        return self.game

    def game_begin(self, dealer: int) -> None:
        """The match of the roster's game, ``dealer`` dealing first."""
        assert self.roster is not None and self.game is not None
        self.match = self.game.start_match(self.roster.options, len(self.roster.sitters),
                                           dealer)

    def game_hand(self) -> GameHand:
        """This session's hand machine for the match's next deal."""
        assert self.roster is not None and self.game is not None
        r = self.roster
        deck = self.deck
        carried = deck if deck is not None and deck.phase is Phase.PLAY and not deck.opened() \
            else None
        hand = self.hand_type(self.game, self._game_match(), tuple(s.pubkey for s in r.sitters),
                        self.seat, table_id=r.table_id, hand=self.hand_no,
                        identity=self.identity, entropy=self.entropy, now=self.now(),
                        timeout=self._limit(), carried=carried)
        self.deck = hand.fair if hand.short else None
        match = self._game_match()
        self.spectate(f"deal {match.deals_played + 1} (hand {self.hand_no}): "
                      f"dealer seat {match.dealer}")
        return hand

    def game_settle(self) -> None:
        """The audit passed: the deal counts (the game settles it, whichever hand machine
        played it)."""
        assert self.hand is not None
        summary = self._table_game().finish_deal(self._game_match(), self.hand.full)
        scores = self.scores()
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        self.tell(DealEnded(summary.points, change, scores, summary.reason, "passed",
                            detail=summary.record))
        self.spectate(deal_ended_line(summary.reason, "passed", scores, word="scores"))

    def game_offence(self, blame: Blame) -> None:
        """A proven offence: the deal is void and costs the offender what the game says."""
        assert self.game is not None
        self.voids_in_row += 1
        summary = self.game.breach(self._game_match(), blame.seat)
        scores = self.scores()
        change = tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True))
        audit = f"failed: {blame}"
        self.tell(Notice(NoticeLevel.ERROR, summary.reason, blame.seat))
        self.tell(DealEnded(summary.points, change, scores, summary.reason, audit, void=True))
        self.spectate(deal_ended_line(summary.reason, audit, scores, word="scores"))

    # --- standings -----------------------------------------------------------------------

    def standings(self) -> Standings:
        """The game's standings as they are."""
        return self._table_game().standings(self._game_match())

    def scores(self) -> tuple[int, ...]:
        """Per seat, the game's running score."""
        return self.standings().scores

    def game_outcome(self, table: str, deals: int, reason: str,
                     standings: Standings) -> MatchOutcome:
        """The outcome, told to the player as the match's end. ``standings``: the game's,
        with the seats that left below those that stayed (leaving never pays)."""
        assert self.game is not None
        winners = standings.winners
        payouts = self.game.payouts(self._game_match())
        self.tell(MatchEnded(winners, standings.order, deals, payouts, reason,
                             detail=standings))
        return MatchOutcome(table, winners, deals, self.audits, tuple(self.blames),
                            standings.scores, payouts, game=self.game.name,
                            standings=standings.order)
