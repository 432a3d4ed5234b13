"""The red team's table-level kinds against honest machines, on a fake clock, in both
games: each attack is mounted, wins nothing, no honest seat is blamed, and every honest
seat ends with the same result (see :mod:`tests.adversary.memory`)."""

from __future__ import annotations

import pytest

from lodam_p2p.redteam.attacks.returns import AwayToggle, ResumeSameHand
from lodam_p2p.session.wire import Msg
from tests.adversary.memory import assert_held, play_against

#: The kinds a table machine can mount on its own (the floods need a link).
TABLE_KINDS = ("rejoin-mulligan", "lone-timeout-vote", "resume-same-hand",
               "leave-while-leading", "away-toggle", "future-step-vote",
               "stray-timeout-vote", "foreign-seat-envelope", "stale-hand-frame")


@pytest.mark.parametrize("game", ["lodam", "lorum"])
@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_the_table_holds_against_the_attack(kind: str, game: str) -> None:
    assert_held(play_against(kind, game=game))


def test_a_resume_of_the_hand_begun_frames_no_one_with_a_carried_deck() -> None:
    """Short First & Last carries its deck over: there a RESUME of the hand begun would
    have the honest seats deal it again and sign a second hand key at seq 0, which the
    attacker shows as equivocation."""
    attack = ResumeSameHand()
    played = play_against(attack, game="lorum",
                          options=("contracts=first_last", "first_last_short=true"))
    assert_held(played)
    assert attack.hands


def test_the_leader_that_leaves_is_named_and_ranks_last() -> None:
    played = play_against("leave-while-leading", game="lorum")
    assert_held(played)
    seat = played.cheat.seat
    assert [line.split(": ")[:2] for line in played.honest[0]["blames"]] == [
        [f"seat {seat}", "left"]]
    assert seat not in played.honest[0]["winners"]


def test_away_and_back_over_and_over_holds_the_table_for_a_bounded_time() -> None:
    """The toggling seat is named before it completes its cycles, and the honest seats
    finish without it."""
    attack = AwayToggle()
    played = play_against(attack, game="lodam")
    assert_held(played)
    assert attack.cycles < AwayToggle.CYCLES
    assert played.honest[0]["blames"][0].startswith(f"seat {played.cheat.seat}: ")


@pytest.mark.parametrize(("kind", "against"), [
    ("lone-timeout-vote", "others"), ("future-step-vote", "others"),
    ("stray-timeout-vote", "itself and past the end")])
def test_the_votes_go_out_as_the_attack_says(kind: str, against: str) -> None:
    played = play_against(kind, game="lodam")
    seat = played.cheat.seat
    votes = [b for b in played.router.sent[played.cheat.me] if b.kind is Msg.TIMEOUT]
    accused = {b.args[0] for b in votes}
    if against == "others":
        assert votes and seat not in accused
    else:
        assert {seat, 250} <= accused
    if kind == "future-step-vote":
        assert all(b.step > 0 for b in votes)


@pytest.mark.parametrize(("kind", "check"), [
    ("equivocation", "equivocation"), ("replay-other-table", "replay"),
    ("bad-key-proof", "key-proof")])
def test_a_cheat_that_signs_what_no_honest_seat_signs_is_convicted_for_it(
        kind: str, check: str) -> None:
    """The cheat keeps no guard of its own against signing twice (an honest machine
    does): the table, not the cheat's own machine, must stop the second envelope."""
    played = play_against(kind, game="lodam")
    assert_held(played)
    assert played.honest[0]["blames"][0].startswith(f"seat {played.cheat.seat}: {check}: ")


def test_a_resume_from_a_seat_that_coordinates_nothing_is_mounted_and_refused() -> None:
    """Seat 3 of four coordinates no return: its RESUME goes out as its own, and the
    table must drop it as it drops any RESUME from a seat that is not the coordinator."""
    played = play_against("resume-same-hand", game="lodam", seat=3)
    assert_held(played)
    resumes = [b for b in played.router.sent[played.cheat.me] if b.kind is Msg.RESUME]
    assert resumes and all(b.args[1] == b.hand for b in resumes)


#: The kinds that work on Lodam's hidden exchanges: not applicable at a Lorum table.
EXCHANGE_KINDS = ("remask-steal", "forged-transfer", "reveal-held-card", "false-exchange-claim")


@pytest.mark.parametrize("kind", EXCHANGE_KINDS)
def test_an_attack_on_exchanges_says_a_lorum_table_has_none(kind: str) -> None:
    played = play_against(kind, game="lorum")
    report = played.cheat.report()
    assert not report["attempted"] and report["reason"] == (
        "lorum has no hidden exchanges to attack"), report
    assert played.honest[0]["blames"] == [] and all(
        result == played.honest[0] for result in played.honest)
