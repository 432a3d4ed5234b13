"""Lorum behind the game interface: every contract and option through the interface's
checks, the deal plan (set-aside cards, the carried stack), the codec, the audit's
offences, standings in points and beans."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.games import (
    ActionCodecError,
    DealPlan,
    GameError,
    Holder,
    Passage,
    PublicMove,
    get_game,
)
from lodam_p2p.games.lorum import Announce, Card, Contract, Lay, Options, Pass, Play
from tests.games.conformance import play_match

GAME = get_game("lorum")


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("assignments", [
    [],
    ["red_king_blind=true", "scoring=beans"],
    ["first_last_short=true", "lorum_start=unter", "lorum_play_on=true"],
    ["contracts=quartet,lorum", "rounds=2", "fifth_trick=6", "first_last_points=5"],
])
def test_every_deal_of_a_match_keeps_the_interface_promises(
    players: int, assignments: list[str]
) -> None:
    options = GAME.parse_options(assignments)
    match, runs = play_match(GAME, players, seed=players, options=options, check_deals=999)
    rounds, contracts = options.rounds, len(options.contracts)
    assert len(runs) == rounds * contracts * players == match.deals_played
    standings = GAME.standings(match)
    assert standings.winners and standings.score_name in ("points", "beans")


def test_a_quartet_run_waits_for_the_holder_of_its_next_card() -> None:
    options = GAME.parse_options(["contracts=quartet"])
    match = GAME.start_match(options, 4, 3)  # seat 0 is eldest and leads
    deck = list(GAME.deal_plan(match).pack)  # seat k holds the cards k, k+4, …
    deal = GAME.new_deal(match, deck)
    public = GAME.public_start(match)
    lead = Play(0, c("7E"))  # 8E is at position 1: seat 1 holds it
    GAME.public_apply(public, GAME.step(deal, lead))
    assert GAME.turn(public) == Holder(c("8E"))
    assert deal.to_act == 1 and deal.legal_actions() == [Play(1, c("8E"))]
    assert deal.view(0).to_act is None and deal.view(1).to_act == 1
    with pytest.raises(GAME.illegal_action, match="the run goes on with 8E"):
        GAME.public_apply(public, PublicMove(2, GAME.encode_action(Play(2, c("9E")))))
    GAME.public_apply(public, GAME.step(deal, Play(1, c("8E"))))
    assert GAME.turn(public) == Holder(c("9E"))


def test_three_players_set_7s_8s_aside_and_deal_the_other_thirty() -> None:
    match = GAME.start_match(Options(), 3, 0)
    plan = GAME.deal_plan(match)
    assert set(plan.set_aside) == {c("7S"), c("8S")} and len(plan.pack) == 30
    assert not plan.talon and plan.fresh and not plan.spent
    assert plan.positions_of(1) == tuple(range(0, 30, 3)), "the eldest gets the top card"


def test_the_short_first_and_last_carries_the_stack_to_the_next_dealer() -> None:
    options = GAME.parse_options(["contracts=first_last", "first_last_short=true"])
    match = GAME.start_match(options, 4, 0)
    first = GAME.deal_plan(match)
    assert first.fresh and GAME.reshuffles(match)
    assert first.positions_of(1) == (0, 4) and first.talon == tuple(range(8, 32))
    deck = list(first.pack)
    random.Random(1).shuffle(deck)
    deal = GAME.new_deal(match, deck)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    GAME.finish_deal(match, deal)
    second = GAME.deal_plan(match)
    assert not second.fresh and not GAME.reshuffles(match)
    assert second.spent == tuple(range(8)) and second.positions_of(2) == (8, 12)
    assert second.talon == tuple(range(16, 32))
    hands = second.hands(deck)
    deal = GAME.new_deal(match, deck)
    assert tuple(deal.view(2).hand) == tuple(sorted(hands[2]))
    with pytest.raises(ValueError, match="carries over"):
        GAME.new_deal(match, list(reversed(deck)))
    steps = []
    while not deal.is_over:
        steps.append(deal.legal_actions()[-1])
        deal.apply(steps[-1])
    replayed = GAME.replay(match, deck, steps)
    assert replayed.error is None and replayed.deal.is_over, "the audit deals on, too"


@pytest.mark.parametrize(("action", "wire"), [
    (Play(1, c("AH")), ["play", [], "AH"]),
    (Lay(2, c("UG")), ["lay", [], "UG"]),
    (Pass(3), ["pass", [], None]),
    (Announce(0, True), ["announce", [True], "KH"]),
    (Announce(0, False), ["announce", [False], None]),
])
def test_the_codec_shows_cards_face_up_and_a_pass_shows_nothing(
    action: object, wire: list[object]
) -> None:
    encoded = GAME.encode_action(action)
    assert encoded.to_list() == wire
    assert encoded.passage is (None if encoded.card is None else Passage.FACE_UP)
    assert GAME.action_from_list(action.seat, wire) == action  # type: ignore[attr-defined]


@pytest.mark.parametrize("raw", [
    ["announce", [True], None], ["announce", [True], "AH"], ["announce", [False], "KH"],
    ["pass", [], "7E"], ["lay", [], None], ["announce", [1], "KH"], ["play", [True], "7E"],
])
def test_malformed_lorum_wire_actions_are_refused(raw: object) -> None:
    with pytest.raises(ActionCodecError):
        GAME.action_from_list(0, raw)


def _reds_deal() -> tuple[object, list[Card]]:
    match = GAME.start_match(GAME.parse_options(["contracts=reds"]), 4, 3)
    return match, list(GAME.deal_plan(match).pack)  # seat k: cards k, k+4, … of the pack


@pytest.mark.parametrize(("actions", "index", "seat", "offence"), [
    # seat 0 holds 7E UE 7G UG 7H UH 7S US: leading a heart in the first trick
    ([Play(0, c("7H"))], 0, 0, "first-trick"),
    # seat 1 holds 8E OE …: it must follow acorns
    ([Play(0, c("7E")), Play(1, c("8G"))], 1, 1, "revoke"),
    ([Play(0, c("8E"))], 0, 0, "card-not-held"),
    ([Play(1, c("8E"))], 0, 1, "illegal-action"),  # out of turn: seen at once
])
def test_the_audit_names_the_first_breach_and_its_seat(
    actions: list[Play], index: int, seat: int, offence: str
) -> None:
    match, deck = _reds_deal()
    replayed = GAME.replay(match, deck, actions)
    assert replayed.error is not None
    assert (replayed.error.index, replayed.error.seat, replayed.error.offence) == (
        index, seat, offence)
    assert replayed.applied == index


def test_a_false_pass_is_a_breach_and_a_silent_holder_is_awaited() -> None:
    match = GAME.start_match(GAME.parse_options(["contracts=lorum"]), 4, 3)
    deck = list(GAME.deal_plan(match).pack)
    replayed = GAME.replay(match, deck, [Lay(0, c("7E")), Pass(1)])  # seat 1 holds 8E
    assert replayed.error is not None
    assert (replayed.error.seat, replayed.error.offence) == (1, "false-pass")
    match = GAME.start_match(GAME.parse_options(["contracts=quartet"]), 4, 3)
    stopped = GAME.replay(match, deck, [Play(0, c("7E"))])
    assert stopped.error is None and stopped.deal.to_act == 1, "the holder of 8E"


def test_standings_lowest_points_win_and_most_beans_win() -> None:
    for scoring in ("points", "beans"):
        options = GAME.parse_options([f"scoring={scoring}", "contracts=reds"])
        match, _runs = play_match(GAME, 4, seed=5, options=options, checks=False)
        standings = GAME.standings(match)
        best = (max if scoring == "beans" else min)(standings.scores)
        assert {s for s in range(4) if standings.scores[s] == best} == set(standings.winners)
        assert standings.order[0] in standings.winners


def test_a_deal_summary_in_beans_balances_against_the_pot() -> None:
    options = GAME.parse_options(["scoring=beans"])
    match, _runs = play_match(GAME, 4, seed=9, options=options, checks=False)
    assert sum(GAME.standings(match).scores) + match.purse.pot + 20 * match.purse.pot_pfennigs \
        == 4 * 40


def test_the_shell_describes_each_contract() -> None:
    for contract in Contract:
        match = GAME.start_match(GAME.parse_options([f"contracts={contract.value}"]), 4, 0)
        deal = GAME.new_deal(match, list(GAME.deal_plan(match).pack))
        line = GAME.describe(deal.view(1))
        assert line.startswith("Lorum · ") and "\n" not in line
    assert "LORUM.md" in GAME.rules_text()



@pytest.mark.parametrize(("fresh", "spent", "talon"), [
    (True, (0,), ()),  # a new shuffle has nothing spent
    (False, (9,), ()),  # no such position
    (False, (0,), (0,)),  # spent is not talon
    (True, (), ()),  # the undealt rest is talon
])
def test_a_deal_plan_states_a_carried_deck_consistently(
    fresh: bool, spent: tuple[int, ...], talon: tuple[int, ...]
) -> None:
    with pytest.raises(GameError):
        DealPlan((c("7E"), c("8E")), (None, 0), talon, (), (), fresh, spent)
    assert DealPlan((c("7E"), c("8E")), (None, 0), (), (), (), False, (0,)).spent == (0,)
