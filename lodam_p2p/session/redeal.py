"""A return taken: the hand under way is void and dealt again, or the seat has left.

Once a seat's return is taken (the coordinator's RESUME applied at every peer,
:mod:`.rejoin`, and adopted by the returning seat itself, :mod:`.returning`), the
table goes on the same way everywhere (protocol/SPEC.md 13, "Rejoin", step 3): the
players are told that the hand is void without blame (:func:`tell_void`); a short
deal's deck that carries over is dropped, since the returning seat lost it with its
memory (:func:`drop_deck`); and the next hand is dealt, unless the return was
one too many (:data:`~.resumestate.MAX_RETURNS`: the seat has left and the match ends)
or the void was the last failed hand in a row the table takes (:data:`~.course.MAX_VOIDS`)
(:func:`go_on`).

The functions reach the table machine only through :class:`RedealTable`, the part of
it they read and call; they keep no state of their own.
"""

from __future__ import annotations

from typing import Any, Protocol

from lodam_p2p.player import DealEnded, Notice, NoticeLevel, TableEvent
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.course import MAX_VOIDS
from lodam_p2p.session.gamecourse import GameCourse
from lodam_p2p.session.log import deal_ended_line
from lodam_p2p.session.matchview import MatchView
from lodam_p2p.session.resumestate import MAX_RETURNS

__all__ = ["RedealTable", "drop_deck", "go_on", "tell_void"]


class RedealTable(MatchView, Protocol):
    """What the table's going on after a return reads and calls on the table machine."""

    voids_in_row: int
    last_blamed: int | None
    game_course: GameCourse
    away_seats: AwaySeats

    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...
    def scores(self) -> tuple[int, ...]: ...
    def finish(self, *, early: bool) -> None: ...
    def new_hand(self) -> None: ...


def tell_void(t: RedealTable, seat: int, count: int) -> None:
    """Tell the player and the spectator log that the hand under way is void by
    ``seat``'s ``count``-th return (or that the seat, back once too often, has left)."""
    reason = (f"seat {seat} came back: the hand is void and dealt again, no blame "
              f"(return {count} of {MAX_RETURNS} it may make this match)")
    if count > MAX_RETURNS:
        reason = f"seat {seat} came back once too often: it has left the match"
    lives = t.scores()
    zero = (0,) * len(lives)
    t.tell(DealEnded(zero, zero, lives, reason, "not reached: a seat came back",
                     void=True))
    word = "counters" if t.game is None or t.game.name == "lodam" else "scores"
    t.spectate(deal_ended_line(reason, "not reached", lives, word=word))


def go_on(t: RedealTable, seat: int, count: int) -> None:
    """Go on after ``seat``'s ``count``-th return (``hand_no`` is the next hand): a seat
    back more than :data:`MAX_RETURNS` times has left and the match ends; otherwise the
    return is one more failed hand in a row, and the next hand is dealt unless that
    makes :data:`MAX_VOIDS`."""
    if count > MAX_RETURNS:
        t.away_seats.away.pop(seat, None)
        t.last_blamed = seat
        t.blames.append(f"seat {seat}: left: came back more than {MAX_RETURNS} "
                        f"times (hand {t.hand_no - 1})")
        t.tell(Notice(NoticeLevel.WARNING, f"seat {seat} came back more than "
                      f"{MAX_RETURNS} times: it counts as having left", seat))
        t.finish(early=True)
        return
    t.voids_in_row += 1
    if t.voids_in_row >= MAX_VOIDS:
        t.finish(early=True)
    else:
        t.new_hand()


def drop_deck(t: RedealTable) -> bool:
    """A short deal's deck that carries over lives only in the seats' memory, and
    the returning seat lost it: every peer drops it at the coordinator's RESUME and
    restores its match as saved, so the next deal shuffles anew everywhere (the
    returning seat restores the same state). True if a deck was carried."""
    if t.game is None or t.roster is None or t.match is None:
        return False
    if t.game_course.deck is None and t.game.reshuffles(t.match):
        return False
    t.game_course.deck = None
    restored: Any = t.game.restore_match(t.roster.options, len(t.roster.sitters),
                                         t.game.match_state(t.match))
    t.match = restored
    return True
