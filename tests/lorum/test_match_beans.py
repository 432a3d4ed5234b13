"""The match (LORUM.md 3, 7), beans and the pfennig sale (LORUM.md 8), and the options."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.games.lorum import (
    Contract,
    MalformedInput,
    Match,
    OptionError,
    Options,
    RulesError,
    Scoring,
    deal_plan,
)
from lodam_p2p.games.lorum.beans import Purse, pay_into_pot, settle
from tests.lorum.helpers import deck_for


def _purse(beans: list[int], pfennigs: list[int] | None = None, pot: int = 0) -> Purse:
    return Purse(list(beans), list(pfennigs or [1] * len(beans)), pot)


@pytest.mark.parametrize(
    ("contract", "points", "beans", "pot"),
    [
        (Contract.RED_KING, [0, 16, 0, 0], [20, 4, 20, 20], 16),
        (Contract.FIRST_LAST, [4, 0, 4, 0], [16, 20, 16, 20], 8),
        (Contract.FIFTH, [0, 0, 8, 0], [20, 20, 12, 20], 8),
        (Contract.REDS, [3, 3, 2, 0], [17, 17, 18, 28], 0),  # one with none: all 8
        (Contract.OBERS, [4, 4, 0, 0], [16, 16, 24, 24], 0),  # two with none: half each
        (Contract.TRICKS, [8, 0, 0, 0], [12, 20, 20, 20], 8),  # three with none: the pot
        (Contract.TRICKS, [2, 2, 2, 2], [18, 18, 18, 18], 8),  # nobody with none: the pot
        (Contract.QUARTET, [3, 4, 0, 5], [17, 16, 32, 15], 0),  # to the first out
    ],
)
def test_beans_go_where_the_contract_says(contract: Contract, points: list[int],
                                          beans: list[int], pot: int) -> None:
    purse = Purse.start(4)
    settle(purse, contract, points, out=[2] if contract is Contract.QUARTET else [], eldest=0)
    assert purse.beans == beans and purse.pot == pot


def test_three_players_tricks_split_ten_between_two() -> None:
    purse = Purse.start(3)
    settle(purse, Contract.TRICKS, [10, 0, 0], out=[], eldest=1)
    assert purse.beans == [10, 25, 25]


def test_lorum_pays_the_first_out_who_also_takes_the_pot() -> None:
    purse = _purse([20, 20, 20, 20], pfennigs=[1, 1, 1, 1], pot=10)
    purse.pot_pfennigs = 1
    settle(purse, Contract.LORUM, [2, 1, 3, 4], out=[1, 0], eldest=0)
    # seat 1 passed once: it pays itself nothing
    assert purse.beans == [18, 20 + 2 + 3 + 4 + 10, 17, 16]
    assert purse.pfennigs == [1, 2, 1, 1] and purse.pot == purse.pot_pfennigs == 0


def test_a_short_payer_sells_its_pfennig_to_the_pot_first() -> None:
    purse = _purse([3, 20, 20, 20], pot=25)
    pay_into_pot(purse, 0, 5)
    assert purse.beans[0] == 18 and purse.pfennigs[0] == 0
    assert purse.pot == 25 - 20 + 5 and purse.pot_pfennigs == 1 and purse.sales == [(0, None)]


def test_else_to_the_richest_player_ties_to_the_sellers_left() -> None:
    purse = _purse([30, 10, 3, 30], pot=5)
    pay_into_pot(purse, 2, 8)
    assert purse.sales == [(2, 3)]
    assert purse.beans == [30, 10, 15, 10] and purse.pfennigs == [1, 1, 0, 2]


def test_a_bought_pfennig_can_be_sold_again_and_debt_when_nobody_buys() -> None:
    purse = _purse([2, 19, 25, 5], pfennigs=[1, 1, 1, 1], pot=0)
    total = purse.total()
    pay_into_pot(purse, 0, 10)  # sells to seat 2 (25); seat 2 now 5 beans, 2 pfennigs
    assert purse.sales == [(0, 2)] and purse.beans == [12, 19, 5, 5]
    pay_into_pot(purse, 1, 10)  # the pot now holds 20
    pay_into_pot(purse, 2, 30)  # sells one to the pot, then finds no buyer: debt
    assert purse.sales == [(0, 2), (2, None)]
    assert purse.beans[2] == 5 + 20 - 30 and purse.pfennigs[2] == 1
    assert purse.pot == 30 and purse.pot_pfennigs == 1
    assert purse.total() == total


def test_buyer_needs_twenty_beans() -> None:
    purse = _purse([0, 19, 19, 19])
    pay_into_pot(purse, 0, 1)
    assert purse.sales == [] and purse.beans[0] == -1 and purse.pfennigs[0] == 1


def _play_match(match: Match, rng: random.Random) -> None:
    while not match.is_over:
        plan = match.plan()
        deal = match.new_deal(deck_for(match.players, rng) if plan.fresh else None)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        match.finish_deal(deal)


@pytest.mark.parametrize(("players", "rounds", "deals"), [(4, 1, 32), (3, 1, 24), (4, 2, 64)])
def test_a_round_deals_each_contract_once_per_dealer(players: int, rounds: int,
                                                     deals: int) -> None:
    match = Match.start(Options(rounds=rounds), players, first_dealer=1)
    seen: list[tuple[Contract, int]] = []
    rng = random.Random(players)
    while not match.is_over:
        seen.append((match.contract, match.dealer))
        deal = match.new_deal(deck_for(players, rng))
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        match.finish_deal(deal)
    assert len(seen) == deals and match.deals_played == deals
    assert [c for c, _ in seen[:players * 8]] == [c for c in Contract for _ in range(players)]
    assert [d for _, d in seen] == [(1 + k) % players for k in range(deals)]
    assert sum(match.totals) == sum(sum(r.points) for r in match.history)
    assert match.winners == [s for s in range(players) if match.totals[s] == min(match.totals)]


def test_contracts_option_keeps_round_order() -> None:
    options = Options.parse_assignments(["contracts=lorum,reds"])
    assert options.contracts == (Contract.REDS, Contract.LORUM)
    match = Match.start(options, 3, 0)
    assert match.schedule == (Contract.REDS,) * 3 + (Contract.LORUM,) * 3


def test_a_breach_scores_the_offender_and_the_same_dealer_deals_again() -> None:
    match = Match.start(Options(scoring=Scoring.BEANS), 4, 2)
    match.new_deal(deck_for(4, random.Random(1)))
    match.breach(1)
    assert match.dealer == 2 and match.contract is Contract.REDS and match.turn == 0
    assert match.totals == [0, 16, 0, 0]
    standing = match.standings()
    assert standing.beans == (20, 4, 20, 20) and standing.pot == 16
    assert match.breaches == [(1, Contract.REDS)]


def test_a_deal_of_another_match_is_refused() -> None:
    match = Match.start(Options(), 4, 0)
    other = Match.start(Options(), 4, 1).new_deal(deck_for(4, random.Random(2)))
    with pytest.raises(RulesError, match="does not belong"):
        match.finish_deal(other)


@pytest.mark.parametrize(("players", "starts"), [(4, [0, 8, 16, 24]), (3, [0, 6, 12])])
def test_short_first_last_carries_the_stack_to_the_next_dealer(players: int,
                                                               starts: list[int]) -> None:
    options = Options(contracts=(Contract.FIRST_LAST, Contract.FIFTH), first_last_short=True)
    match = Match.start(options, players, 0)
    rng = random.Random(5)
    deck = deck_for(players, rng)
    seen = []
    for number in range(players):
        plan = match.plan()
        seen.append(plan.hands[(match.dealer + 1) % players][0])
        assert plan.fresh is (number == 0) and plan.hand_size == 2
        deal = match.new_deal(deck if number == 0 else None)
        expected = [deck[p] for p in plan.hands[1]]
        assert list(deal.dealt_hands[1]) == expected
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        assert len(deal.tricks) == 2 and sum(t.points for t in deal.tricks) == 8
        match.finish_deal(deal)
    assert seen == starts
    assert match.contract is Contract.FIFTH and match.plan().fresh
    with pytest.raises(MalformedInput, match="newly shuffled"):
        match.new_deal()


def test_short_stack_too_short_means_a_new_shuffle() -> None:
    plan = deal_plan(4, 0, short=True, start=24)
    assert plan.stack == () and not plan.fresh
    with pytest.raises(MalformedInput):
        deal_plan(4, 0, short=True, start=26)


def test_deal_plan_three_players_sets_aside_and_deals_one_at_a_time() -> None:
    plan = deal_plan(3, 2)
    assert [str(c) for c in plan.set_aside] == ["7S", "8S"] and plan.deck_size == 30
    assert plan.hands[0] == tuple(range(0, 30, 3)) and plan.hands[2] == tuple(range(2, 30, 3))


@pytest.mark.parametrize("seed", range(4))
def test_beans_and_pfennigs_are_conserved_over_matches(seed: int) -> None:
    rng = random.Random(seed)
    players = 3 + seed % 2
    options = Options(scoring=Scoring.BEANS, first_last_short=seed % 2 == 0,
                      lorum_play_on=seed >= 2)
    match = Match.start(options, players, seed % players)
    _play_match(match, rng)
    assert match.purse.total() == 40 * players
    worth = match.purse.worth()
    assert match.winners == [s for s in range(players) if worth[s] == max(worth)]


@pytest.mark.parametrize(
    ("items", "message"),
    [
        (["rounds=0"], "rounds must be ≥ 1"),
        (["fifth_trick=7"], "fifth_trick must be one of"),
        (["first_last_points=3"], "first_last_points must be one of"),
        (["scoring=chips"], "scoring must be one of"),
        (["lorum_start=ober"], "lorum_start must be one of"),
        (["red_king_blind=1"], "red_king_blind must be true or false"),
        (["contracts=reds,reds"], "names 'reds' twice"),
        (["contracts=skat"], "unknown contract 'skat'"),
        (["breach_points=-1"], "breach_points must be ≥ 0"),
        (["colour=red"], "unknown option 'colour'"),
        (["rounds"], "name=value"),
    ],
)
def test_bad_options_are_named(items: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        Options.parse_assignments(items)


def test_options_round_trip_and_defaults() -> None:
    options = Options.parse_assignments(["scoring=beans", "lorum_start=unter", "rounds=2",
                                         "first_last_short=true", "fifth_trick=6"])
    assert Options.from_mapping(options.to_mapping()) == options
    assert Options().to_mapping()["contracts"] == [c.value for c in Contract]
    assert Options().breach_points == 16 and Options().fifth_points() == 8
