"""The match (RULES.md 3, 8, 9, 10): counters, elimination, the deal passing, winners."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import FULL_PACK, SHORT_PACK, Deal, Match, Options, RulesError


def play_out(deal: Deal) -> None:
    """Finish a deal taking the last legal action every time (deterministic)."""
    while not deal.is_over:
        deal.apply(deal.legal_actions()[-1])


def test_a_new_match() -> None:
    match = Match.start(Options(), 4, first_dealer=2)
    assert match.lives == [3, 3, 3, 3] and match.active == [True] * 4
    assert match.dealer == 2 and not match.is_over and match.winners == []
    winning = Match.start(Options(winning=True), 4, first_dealer=0)
    assert winning.lives == [0, 0, 0, 0] and winning.active == [True] * 4


def test_the_deal_passes_to_the_left() -> None:
    match = Match.start(Options(), 3, first_dealer=2)
    match.settle([0, 0, -1])
    assert match.dealer == 0 and match.lives == [3, 3, 2] and match.deals_played == 1


def test_finish_deal_applies_the_result() -> None:
    match = Match.start(Options(), 4, first_dealer=0)
    deal = match.new_deal(FULL_PACK)
    play_out(deal)
    result = match.finish_deal(deal)
    assert match.lives == [3 + c for c in result.counter_change]
    assert match.dealer == 1


def test_an_eliminated_next_dealer_deals_once_more_then_is_skipped() -> None:
    match = Match.resume(Options(), [3, 1, 3, 3, 3], dealer=0)
    match.settle([0, -1, 0, 0, 0])
    assert match.active[1] is False and match.dealer == 1
    deal = match.new_deal(FULL_PACK)
    assert deal.dealer == 1 and deal.public.order[0] == 2  # seat 2 is eldest, as due
    assert deal.dealt_hands[1] == () and deal.public.hand_size == 12
    match.settle([0] * 5)
    assert match.dealer == 2
    match.settle([0] * 5)
    match.settle([0] * 5)
    match.settle([0] * 5)
    assert match.dealer == 0
    match.settle([0] * 5)
    assert match.dealer == 2  # seat 1 skipped from now on


def test_an_eliminated_dealer_passes_the_deal_on() -> None:
    match = Match.resume(Options(), [1, 3, 3], dealer=0)
    match.settle([-1, 0, 0])
    assert match.dealer == 1 and match.active == [False, True, True]
    assert not match.is_over  # play goes on with two


def test_the_last_player_holding_counters_wins() -> None:
    match = Match.resume(Options(), [1, 2, 0], dealer=0)
    match.settle([-1, 0, 0])
    assert match.is_over and match.winners == [1]


def test_all_remaining_losing_their_last_counter_share_the_win() -> None:
    match = Match.resume(Options(stake=5), [1, 1, 1, 0], dealer=0)
    match.settle([-1, -1, -1, 0])
    assert match.is_over and match.winners == [0, 1, 2]
    # the pot of 4 × 5 = 20 shared by three: 6 each, the remainder 2 to seat 0
    assert match.payouts() == [3, 1, 1, -5]
    assert sum(match.payouts()) == 0


def test_a_single_winner_takes_the_pot() -> None:
    match = Match.resume(Options(stake=3), [1, 2, 0], dealer=0)
    match.settle([-1, 0, 0])
    assert match.payouts() == [-3, 6, -3]


def test_payouts_wait_for_the_end() -> None:
    with pytest.raises(RulesError, match="not over"):
        Match.start(Options(), 3, 0).payouts()


def test_winning_lodam_first_to_lives_counters_wins_and_ties_share() -> None:
    match = Match.resume(Options(winning=True, lives=2), [1, 1, 0], dealer=0)
    match.settle([0, 0, 1])
    assert not match.is_over and match.active == [True] * 3
    match.settle([1, 1, 0])
    assert match.is_over and match.winners == [0, 1]


def test_a_revoke_eliminates_at_once_and_the_same_dealer_deals_again() -> None:
    match = Match.resume(Options(), [3, 2, 3, 1], dealer=1)
    match.revoke(2)
    assert match.active == [True, True, False, True] and match.lives == [3, 2, 0, 1]
    assert match.dealer == 1 and not match.is_over
    match.revoke(0)
    match.revoke(3)
    assert match.is_over and match.winners == [1]


def test_a_revoke_in_winning_lodam_removes_the_seat_but_keeps_its_counters() -> None:
    match = Match.resume(Options(winning=True), [2, 1, 0], dealer=0)
    match.revoke(0)
    assert match.active == [False, True, True] and match.lives == [2, 1, 0]
    deal = match.new_deal(FULL_PACK)
    assert deal.dealt_hands[0] == () and deal.public.hand_size == 24


def test_short_deck_switch() -> None:
    match = Match.resume(Options(short_deck_at=3), [3, 3, 3, 1], dealer=0)
    assert match.pack_size() == 52
    match.settle([0, 0, 0, -1])
    assert match.pack_size() == 32
    deal = match.new_deal(SHORT_PACK)
    assert deal.public.hand_size == 9 and len(deal.talon) == 5
    with pytest.raises(ValueError, match="must hold 32 cards"):
        match.new_deal(FULL_PACK)


def test_a_whole_match_ends_with_winners() -> None:
    match = Match.start(Options(lives=1), 5, first_dealer=3)
    deals = 0
    while not match.is_over:
        deck = FULL_PACK if match.pack_size() == 52 else SHORT_PACK
        deal = match.new_deal(deck[deals % 7:] + deck[: deals % 7])
        play_out(deal)
        match.finish_deal(deal)
        deals += 1
    assert match.winners and all(match.active[s] or match.lives[s] == 0 for s in range(5))
    assert match.deals_played == deals <= 5
