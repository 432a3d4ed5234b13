"""Losing Lodam behind the game interface: the facts it states are the engine's own."""

from __future__ import annotations

import random

import pytest

from lodam_p2p.games import ActionCodecError, Passage, WireAction, any_seat_range, get_game
from lodam_p2p.games.lodam import (
    FULL_PACK,
    GAME,
    SHORT_PACK,
    Answer,
    Card,
    Challenge,
    Deal,
    Declare,
    Match,
    Offer,
    Options,
    Play,
    Swallow,
)
from lodam_p2p.transport import lobby


def card(text: str) -> Card:
    return Card.parse(text)


def test_the_registry_hands_out_the_lodam_game() -> None:
    assert get_game("lodam") is GAME
    assert GAME.title == "Losing Lodam"


def test_seats_are_those_of_rules_section_3_and_the_lobby_takes_them() -> None:
    assert (GAME.seats.low, GAME.seats.high) == (3, 10)
    widest = any_seat_range()
    assert widest.low == lobby.MIN_SEATS and widest.high == lobby.MAX_SEATS
    assert lobby.MIN_SEATS <= 3 and lobby.MAX_SEATS >= 10


@pytest.mark.parametrize(("players", "dealer", "options"), [
    (5, 2, Options()),
    (10, 9, Options()),
    (4, 0, Options(short_deck_at=4)),
    (3, 1, Options(hand_size=5)),
])
def test_the_deal_plan_is_the_engines_deal(players: int, dealer: int, options: Options) -> None:
    match = GAME.start_match(options, players, dealer)
    plan = GAME.deal_plan(match)
    deck = list(plan.pack)
    random.Random(players).shuffle(deck)
    deal = GAME.new_deal(match, deck)
    assert isinstance(deal, Deal)
    hands = plan.hands(deck)
    for seat in range(players):
        assert tuple(hands.get(seat, ())) == deal.dealt_hands[seat]
    assert tuple(deck[j] for j in plan.talon) == deal.talon
    assert plan.turnable == (plan.talon[0],), "the talon's top is the card turned as trump"
    expected = SHORT_PACK if options.short_deck_at >= players else FULL_PACK
    assert plan.pack == expected
    eldest = (dealer + 1) % players
    assert plan.schedule[0] == eldest


def test_a_plan_after_an_elimination_skips_the_eliminated_seat() -> None:
    match = Match.resume(Options(), [2, 0, 1, 3], dealer=0)
    plan = GAME.deal_plan(match)
    assert 1 not in plan.schedule
    assert plan.schedule[:3] == (2, 3, 0)
    assert GAME.dealt_in(match) == (True, False, True, True)


@pytest.mark.parametrize(("action", "wire"), [
    (Play(2, card("TD")), WireAction("play", (), card("TD"), Passage.FACE_UP)),
    (Offer(2, card("KH")), WireAction("offer", ("coat",), card("KH"), Passage.FACE_DOWN)),
    (Offer(2, card("AS")), WireAction("offer", ("card",), card("AS"), Passage.FACE_DOWN)),
    (Offer(2, None), WireAction("offer", (None,))),
    (Answer(2, card("QC")), WireAction("answer", (), card("QC"), Passage.TO_ONE)),
    (Answer(2, None), WireAction("answer")),
    (Swallow(2, True), WireAction("swallow", (True,))),
    (Declare(2, True, 4), WireAction("declare", (True, 4))),
    (Declare(2, False), WireAction("declare", (False, None))),
    (Challenge(2, None), WireAction("challenge", (None,))),
])
def test_the_codec_table(action: object, wire: WireAction) -> None:
    assert GAME.encode_action(action) == wire
    assert GAME.decode_action(2, wire) == action
    assert GAME.action_from_list(2, wire.to_list()) == action


@pytest.mark.parametrize("raw", [
    ["offer", ["card"], "KH"],      # a coat offered as a card
    ["offer", ["coat"], None],      # a kind without its card
    ["offer", ["coat"], "7H"],      # not exchangeable at all
    ["swallow", [1], None],         # not a bool
    ["declare", [True, True], None],
    ["challenge", [-1], None],
    ["play", [], None],             # a play without its card
    ["swallow", [True], "7H"],      # a card where none goes
])
def test_wrong_wire_actions_name_the_problem(raw: list[object]) -> None:
    with pytest.raises(ActionCodecError):
        GAME.action_from_list(0, raw)


def test_only_offers_and_accepting_answers_hide_their_card() -> None:
    assert GAME.public_action(Offer(1, card("KH"))) is None
    assert GAME.public_action(Answer(1, card("KH"))) is None
    assert GAME.public_action(Answer(1, None)) == Answer(1, None)
    assert GAME.public_action(Play(1, card("KH"))) == Play(1, card("KH"))


def test_the_replay_names_a_revoke() -> None:
    match = GAME.start_match(Options(), 3, 2)
    plan = GAME.deal_plan(match)
    deck = list(plan.pack)
    random.Random(4).shuffle(deck)
    deal = GAME.new_deal(match, deck)
    actions = []
    while not deal.is_over:
        legal = deal.legal_actions()
        plays = [a for a in legal if isinstance(a, Play)]
        seat = deal.to_act
        assert seat is not None
        if plays and deal.current_trick:
            led = deal.current_trick[0][1].suit
            hand = deal.hand(seat)
            other = [c for c in hand if c.suit != led]
            if other and len(other) < len(hand):
                actions.append(Play(seat, other[0]))  # a renounce: a revoke
                break
        action = legal[0]
        deal.apply(action)
        actions.append(action)
    replayed = GAME.replay(match, deck, actions)
    assert replayed.error is not None
    assert replayed.error.offence == "revoke"
    assert replayed.error.index == len(actions) - 1


def test_standings_rank_by_elimination_then_counters() -> None:
    match = Match.resume(Options(), [0, 2, 0, 1], dealer=0)
    match.eliminated_in = [3, None, 5, None]
    match.is_over, match.winners = True, [1]
    standings = GAME.standings(match)
    assert standings.order == (1, 3, 2, 0)
    assert standings.ranks == (4.0, 1.0, 3.0, 2.0)
    assert standings.scores == (0, 2, 0, 1) and standings.score_name == "counters"


def test_option_rows_carry_help_for_every_option() -> None:
    rows = GAME.option_rows()
    assert {row.name for row in rows} == set(Options().to_mapping())
    assert all(row.help for row in rows)


def test_a_deal_line_names_the_trump() -> None:
    match = GAME.start_match(Options(), 4, 0)
    deal = GAME.new_deal(match, list(FULL_PACK))
    assert "trump not turned" in GAME.describe(deal.view(1))
