"""Leaving never pays, in every game: a seat that left the match or was put out of it
stands below every seat that stayed and wins nothing while a seat plays on, whatever its
score when it left (:meth:`Standings.with_leavers`, the one rule both games follow
through :meth:`Game.standings_with_leavers`)."""

from __future__ import annotations

import pytest

from lodam_p2p.games import Standings, get_game
from lodam_p2p.games.lodam import Options as LodamOptions
from lodam_p2p.games.lodam.match import Match as LodamMatch
from lodam_p2p.games.lorum import Options as LorumOptions
from lodam_p2p.games.lorum.match import Match as LorumMatch
from lodam_p2p.ui.rules_page import rules_page
from tests.games.test_conformance import assert_sane

LODAM = get_game("lodam")
LORUM = get_game("lorum")


def points(*totals: int) -> Standings:
    """Lorum-like standings in points, the lowest total first."""
    order = tuple(sorted(range(len(totals)), key=lambda s: (totals[s], s)))
    ranks = tuple(1.0 + sum(t < totals[s] for t in totals)
                  + (sum(t == totals[s] for t in totals) - 1) / 2 for s in range(len(totals)))
    return Standings((), order, ranks, totals, "points")


# --- the rule ---------------------------------------------------------------------------

def test_the_leader_who_leaves_stands_last_and_the_best_of_the_others_wins() -> None:
    standing = points(3, 20, 9, 14)
    after = standing.with_leavers([0], [0, 1, 2, 3])
    assert standing.order[0] == 0  # the leader, as the scores stand
    assert after.winners == (2,) and after.order == (2, 3, 1, 0)
    assert after.ranks == (4.0, 3.0, 1.0, 2.0) and after.scores == standing.scores
    assert_sane(after, 4)


def test_the_later_leaver_stands_above_the_earlier_whatever_their_scores() -> None:
    after = points(3, 20, 9, 14).with_leavers([2, 0], [0, 1, 2, 3])
    assert after.order == (3, 1, 0, 2) and after.winners == (3,)
    assert after.ranks[0] < after.ranks[2]
    assert points(3, 20, 9, 14).with_leavers([0, 2], [0, 1, 2, 3]).order == (3, 1, 2, 0)


def test_a_draw_makes_every_seat_still_playing_a_winner_and_leavers_stay_below() -> None:
    after = points(3, 20, 9, 14).with_leavers([0], [0, 1, 2, 3], draw=True)
    assert after.winners == (1, 2, 3) and after.order[-1] == 0
    assert after.ranks == (4.0, 2.0, 2.0, 2.0)
    assert_sane(after, 4)


def test_ties_among_those_who_stayed_share_the_win() -> None:
    after = points(1, 5, 5, 8).with_leavers([0], [0, 1, 2, 3])
    assert after.winners == (1, 2) and after.ranks[1] == after.ranks[2] == 1.5
    assert after.order == (1, 2, 3, 0)


def test_nobody_left_changes_nothing_but_gives_the_leaders_the_win() -> None:
    standing = points(4, 2, 9)
    after = standing.with_leavers([], [0, 1, 2])
    assert after.order == standing.order and after.ranks == standing.ranks
    assert after.winners == (1,)


def test_a_game_over_keeps_its_own_winners_and_nobody_wins_when_nobody_plays() -> None:
    over = Standings((1,), (0, 1, 2), (1.0, 2.0, 3.0), (9, 5, 1), "counters")
    assert over.with_leavers([0], [1]).winners == (1,)
    assert over.with_leavers([0], [1]).order == (1, 2, 0)
    assert over.with_leavers([0, 1, 2], []).winners == ()


def test_when_only_a_seat_that_left_plays_on_the_best_of_those_who_stayed_wins() -> None:
    """A false host is named, yet plays on to the end and outlasts the others: it stands
    last, and the best placed of the seats that stayed wins."""
    over = Standings((2,), (2, 0, 1), (2.0, 3.0, 1.0), (0, 0, 1), "counters")
    after = over.with_leavers([2], [2])
    assert after.winners == (0,) and after.order == (0, 1, 2)
    assert_sane(after, 3)


def test_seats_named_twice_or_outside_the_table_are_taken_once_or_not_at_all() -> None:
    after = points(3, 20, 9).with_leavers([0, 7, 0, -1], [0, 1, 2, 9])
    assert after.order == (2, 1, 0) and after.winners == (2,)


# --- Losing Lodam and Winning Lodam -----------------------------------------------------

def test_lodam_a_leader_put_out_in_winning_lodam_falls_from_first_to_last() -> None:
    match = LodamMatch.start(LodamOptions(winning=True, lives=5), 4, 0)
    match.settle([2, 0, 1, 0])
    match.settle([1, 0, 0, 1])
    LODAM.put_out(match, 0)  # seat 0 holds the most counters, and keeps them
    assert not match.is_over and match.lives[0] == 3
    assert LODAM.standings(match).order[0] == 0  # the game alone still puts it first
    after = LODAM.standings_with_leavers(match, [0])
    assert after.winners == (2, 3) and after.order == (2, 3, 1, 0)
    assert after.scores == (3, 0, 1, 1)
    assert_sane(after, 4)


def test_lodam_the_leader_who_leaves_is_below_a_seat_already_knocked_out() -> None:
    match = LodamMatch.start(LodamOptions(lives=3), 4, 0)
    match.settle([0, -1, -1, -3])  # seat 3 is out of counters, seat 0 leads
    assert match.remaining() == [0, 1, 2]
    after = LODAM.standings_with_leavers(match, [0])
    assert after.winners == (1, 2) and after.order == (1, 2, 3, 0)
    assert 0 not in after.winners and after.scores[0] == 3


def test_lodam_a_draw_is_won_by_every_seat_still_dealt_in() -> None:
    match = LodamMatch.start(LodamOptions(lives=3), 4, 0)
    match.settle([0, -1, 0, -3])
    after = LODAM.standings_with_leavers(match, [2], draw=True)
    assert after.winners == (0, 1) and after.order == (0, 1, 3, 2)


def test_lodam_a_match_played_out_after_a_seat_was_put_out_keeps_it_last() -> None:
    match = LodamMatch.start(LodamOptions(lives=2), 3, 0)
    LODAM.put_out(match, 1)  # put out holding its two counters: lives go to 0
    match.settle([-2, 0, 0])
    assert match.is_over and match.winners == [2]
    after = LODAM.standings_with_leavers(match, [1])
    assert after.winners == (2,) and after.order == (2, 0, 1)


# --- Lorum, in points and in beans ------------------------------------------------------

@pytest.mark.parametrize("scoring", ["points", "beans"])
def test_lorum_the_leader_who_leaves_is_last_and_wins_nothing(scoring: str) -> None:
    match = LorumMatch.start(LORUM.parse_options([f"scoring={scoring}"]), 4, 0)
    for seat in (1, 2, 3, 3):  # everyone but seat 0 pays breach points: seat 0 leads
        match.breach(seat)
    standing = LORUM.standings(match)
    assert min(standing.ranks) == standing.ranks[0] and standing.order[0] == 0
    after = LORUM.standings_with_leavers(match, [0])
    assert 0 not in after.winners and after.order[-1] == 0
    assert after.winners == (1, 2) and after.order == (1, 2, 3, 0)
    assert after.scores == standing.scores
    assert_sane(after, 4)


def test_lorum_a_draw_among_three_with_the_leader_gone() -> None:
    match = LorumMatch.start(LORUM.default_options(), 4, 0)
    match.breach(2)
    after = LORUM.standings_with_leavers(match, [1], draw=True)
    assert after.winners == (0, 2, 3) and after.order[-1] == 1


def test_both_rules_pages_say_that_leaving_never_pays() -> None:
    for page in (rules_page("lodam", LodamOptions()), rules_page("lorum", LorumOptions())):
        text = " ".join(p.text for p in page)
        assert "Leaving never pays" in text and "cannot win" in text
