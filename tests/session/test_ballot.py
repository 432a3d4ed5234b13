"""The book of TIMEOUT votes and waits one machine keeps (:mod:`lodam_p2p.session.ballot`):
pure, on times given by the test."""

from __future__ import annotations

from lodam_p2p.session.ballot import MAX_PENDING_PER_VOTER, Ballot


def test_a_seat_no_longer_awaited_has_answered() -> None:
    ballot = Ballot()
    ballot.restart((1, 4), 10.0)
    assert ballot.await_seats({2, 3}, 10.0) == []
    assert ballot.await_seats({3}, 12.0) == [2]  # seat 2 answered
    assert ballot.deadline(2, 5.0) is None and ballot.deadline(3, 5.0) == 15.0
    assert ballot.await_seats({2, 3}, 13.0) == []  # awaited again: a fresh wait
    assert ballot.deadline(2, 5.0) == 18.0


def test_a_new_step_drops_the_votes_of_the_steps_before_it() -> None:
    ballot = Ballot()
    ballot.restart((1, 4), 0.0)
    assert ballot.pend((1, 4, 2), 0) and ballot.pend((1, 5, 2), 0)
    ballot.restart((1, 5), 1.0)
    assert set(ballot.pending) == {(1, 5, 2)}
    assert not ballot.pend((1, 4, 2), 1)  # a step left behind


def test_one_voter_keeps_a_bounded_number_of_votes_pending() -> None:
    ballot = Ballot()
    ballot.restart((1, 0), 0.0)
    kept = [ballot.pend((1, step, 2), 0) for step in range(MAX_PENDING_PER_VOTER + 4)]
    assert kept.count(True) == MAX_PENDING_PER_VOTER
    assert ballot.pend((1, 0, 3), 1)  # another voter is not held back by it


def test_a_hold_is_a_pause_given_back_up_to_a_cap_per_step() -> None:
    ballot = Ballot()
    ballot.restart((1, 0), 0.0)
    ballot.await_seats({2}, 0.0)
    ballot.hold(True, 5.0, cap=30.0)
    ballot.hold(False, 25.0, cap=30.0)  # 20 s held, given back
    assert ballot.deadline(2, 10.0) == 30.0
    assert ballot.ran_out(2, 10.0, 25.0)  # counting the hold as time spent, it ran out
    ballot.hold(True, 26.0, cap=30.0)
    ballot.hold(False, 46.0, cap=30.0)  # 20 s more held, 10 s of it given back
    assert ballot.deadline(2, 10.0) == 40.0 and ballot.held == 30.0
    ballot.restart((1, 1), 50.0)  # the next step starts with nothing held
    assert ballot.held == 0.0 and not ballot.since
