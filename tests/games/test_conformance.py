"""Every registered game keeps the promises of the game interface.

Parametrised over :func:`lodam_p2p.games.game_names`, so a game that registers (Lorum,
a third-party game) is checked by these very tests with no edit here:

- a whole match of random legal moves, through the interface alone, ends, with sane
  standings and deal summaries;
- whose turn the public part names is the deal's (or a ``Holder`` whose card only the
  acting seat holds); a view's legal list is the deal's;
- no view ever shows a card that :meth:`Game.hidden_cards` says the seat may not know;
- swapping two cards between other seats (or the talon) changes nothing in a seat's
  first view of the deal;
- the deal plan partitions the deck and says who gets what, as the engine deals it;
- every action survives the wire codec both ways; malformed wire input is refused
  with :class:`ActionCodecError`;
- the public part, advanced by the moves as every seat saw them, names the deal's turn
  at every step and refuses a move out of turn; no hidden card goes public;
- the audit replay accepts the deal as played and names the first refused action;
- options round-trip, the seat range is enforced, and an unknown game is refused.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from lodam_p2p.games import (
    ActionCodecError,
    Game,
    GameError,
    Holder,
    Passage,
    Standings,
    UnknownGameError,
    game_names,
    games,
    get_game,
)
from tests.games.conformance import DealRun, cards_in, play_deal, play_match


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> Game:
    return get_game(request.param)


def table_sizes(game: Game) -> list[int]:
    """The smallest and the largest table, and one between when there is one."""
    low, high = game.seats.low, game.seats.high
    return sorted({low, (low + high) // 2, high})


def test_the_registry_lists_and_finds_every_game() -> None:
    names = game_names()
    assert "lodam" in names
    assert [g.name for g in games()] == names
    for name in names:
        found = get_game(name)
        assert found is get_game(name)
        assert found.title and found.name == name
    with pytest.raises(UnknownGameError, match=r"unknown game 'skat'.*installed: .*lodam"):
        get_game("skat")


@pytest.mark.parametrize("size", [0, 1, 2])
def test_random_play_ends_every_match_with_sane_standings(game: Game, size: int) -> None:
    players = table_sizes(game)[min(size, len(table_sizes(game)) - 1)]
    match, runs = play_match(game, players, seed=100 + size)
    assert match.is_over and runs
    standings = game.standings(match)
    assert_sane(standings, players)
    assert len(game.payouts(match)) == players
    assert sum(game.payouts(match)) == 0


def assert_sane(standings: Standings, players: int) -> None:
    assert sorted(standings.order) == list(range(players))
    assert standings.winners and set(standings.winners) <= set(range(players))
    assert set(standings.order[: len(standings.winners)]) == set(standings.winners)
    assert len(standings.ranks) == len(standings.scores) == players
    assert all(1 <= r <= players for r in standings.ranks)
    assert sum(standings.ranks) == pytest.approx(players * (players + 1) / 2)
    best = min(standings.ranks)
    assert all(standings.ranks[w] == best for w in standings.winners)


def test_a_deal_summary_has_a_figure_per_seat(game: Game) -> None:
    players = game.seats.low
    match = game.start_match(game.default_options(), players, 0)
    deal, _run = play_deal(game, match, random.Random(5))
    summary = game.finish_deal(match, deal)
    for figures in (summary.points, summary.penalty, summary.gain):
        assert len(figures) == players
    assert all(p >= 0 for p in summary.penalty) and all(g >= 0 for g in summary.gain)
    assert summary.reason
    assert match.deals_played == 1


def test_the_deal_plan_partitions_the_deck_and_is_how_the_engine_deals(game: Game) -> None:
    for players in table_sizes(game):
        match = game.start_match(game.default_options(), players, players - 1)
        plan = game.deal_plan(match)
        assert len(set(plan.pack)) == len(plan.pack), "no card twice in the pack"
        assert plan.pack == game.pack(match)
        dealt = [j for seat in range(players) for j in plan.positions_of(seat)]
        assert sorted(dealt + list(plan.talon)) == list(range(len(plan.pack)))
        assert not set(plan.set_aside) & set(plan.pack)
        deck = list(plan.pack)
        random.Random(players).shuffle(deck)
        deal = game.new_deal(match, deck)
        hands = plan.hands(deck)
        for seat in range(players):
            own = set(hands.get(seat, ()))
            assert game.hidden_cards(deal, seat) == set(deck) - own, (
                f"seat {seat} holds what the plan deals it, and nothing else is known")


def test_no_view_shows_a_hidden_card_and_turns_agree(game: Game) -> None:
    for players in table_sizes(game):
        play_match(game, players, seed=7 * players)  # checks every step of 3 deals


def test_a_view_does_not_change_when_others_cards_are_swapped(game: Game) -> None:
    rng = random.Random(3)
    for players in table_sizes(game):
        match = game.start_match(game.default_options(), players, 0)
        plan = game.deal_plan(match)
        deck = list(plan.pack)
        rng.shuffle(deck)
        owner = {j: ("talon" if s is None else s) for j, s in enumerate(plan.schedule)}
        for seat in range(players):
            others = [j for j in owner if owner[j] != seat and j not in plan.turnable]
            for _ in range(5):
                a, b = rng.sample(others, 2)
                if owner[a] == owner[b]:
                    continue
                swapped = deck[:]
                swapped[a], swapped[b] = swapped[b], swapped[a]
                first = game.new_deal(match, deck).view(seat)
                second = game.new_deal(match, swapped).view(seat)
                assert first == second, f"seat {seat} sees a card of another seat"


def runs_of(game: Game) -> Iterator[tuple[int, DealRun]]:
    for players in table_sizes(game):
        _match, runs = play_match(game, players, seed=players, checks=False)
        for run in runs[:3]:
            yield players, run


def test_every_action_survives_the_wire_codec(game: Game) -> None:
    seen = 0
    for _players, run in runs_of(game):
        for step in run.steps:
            for action in step.legal:
                wire = game.encode_action(action)
                assert game.decode_action(step.seat, wire) == action
                assert game.action_from_list(step.seat, wire.to_list()) == action
                assert (wire.card is None) == (wire.passage is None)
                public = game.public_action(action)
                assert public is None or public == action
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("raw", [
    [], "play", ["nosuch", [], None], [7, [], None], ["play", "args", None],
    ["play", [], "ZZ"], ["play", [], 7], ["play", [[1]], None], None,
])
def test_malformed_wire_actions_are_refused_cleanly(game: Game, raw: object) -> None:
    with pytest.raises(ActionCodecError):
        game.action_from_list(0, raw)


def test_the_audit_replay_accepts_the_deal_and_names_the_first_refusal(game: Game) -> None:
    players = game.seats.low
    rng = random.Random(11)
    match = game.start_match(game.default_options(), players, 1)
    deal, run = play_deal(game, match, rng, checks=False)
    actions = [step.action for step in run.steps]
    replayed = game.replay(match, run.deck, actions)
    assert replayed.error is None and replayed.applied == len(actions)
    assert replayed.deal.is_over
    late = game.replay(match, run.deck, [*actions, actions[-1]])
    assert late.error is not None and late.error.index == len(actions)
    assert late.applied == len(actions)
    if len(actions) > 1:
        swapped = game.replay(match, run.deck, [actions[1], actions[0], *actions[2:]])
        if run.steps[0].seat != run.steps[1].seat:
            assert swapped.error is not None and swapped.error.index == 0
            assert swapped.error.seat == run.steps[1].seat
    assert deal.is_over and match.deals_played == 0, "replay leaves the match alone"


def test_the_public_part_follows_the_deal_from_what_every_seat_saw(game: Game) -> None:
    rng = random.Random(21)
    for players in table_sizes(game):
        match = game.start_match(game.default_options(), players, 0)
        for _deal in range(3):
            if match.is_over:
                break
            plan = game.deal_plan(match)
            public = game.public_start(match)
            deck = list(plan.pack)
            rng.shuffle(deck)
            deal = game.new_deal(match, deck)
            turned_at = {deck[j] for j in plan.turnable}
            assert game.turn(public) == deal.to_act
            while not deal.is_over:
                legal = deal.legal_actions()
                move = game.step(deal, legal[rng.randrange(len(legal))])
                if move.wire.card is not None:
                    assert move.wire.passage is Passage.FACE_UP, "a hidden card went public"
                assert move.turned is None or move.turned in turned_at
                game.public_apply(public, move)
                turn = game.turn(public)
                if not isinstance(turn, Holder):
                    assert turn == deal.to_act
            assert game.turn(public) is None
            game.finish_deal(match, deal)


def test_the_public_part_refuses_a_move_out_of_turn(game: Game) -> None:
    match = game.start_match(game.default_options(), game.seats.low, 0)
    plan = game.deal_plan(match)
    deal = game.new_deal(match, list(plan.pack))
    public = game.public_start(match)
    move = game.step(deal, deal.legal_actions()[0])
    wrong = dataclasses.replace(move, seat=(move.seat + 1) % game.seats.low)
    with pytest.raises(game.illegal_action):
        game.public_apply(public, wrong)


def test_options_round_trip_and_bad_ones_are_one_line_errors(game: Game) -> None:
    default = game.default_options()
    assert isinstance(default, game.options_type)
    assert game.parse_options([]) == default
    mapping = game.options_to_mapping(default)
    assert game.options_from_mapping(mapping) == default
    assert [row.name for row in game.option_rows()] == list(mapping)
    assert all(row.default == mapping[row.name] for row in game.option_rows())
    for bad in (["nosuch=1"], ["novalue"]):
        with pytest.raises(ValueError) as caught:
            game.parse_options(bad)
        assert "\n" not in str(caught.value)


def test_the_seat_range_is_enforced(game: Game) -> None:
    for players in (game.seats.low - 1, game.seats.high + 1):
        assert players not in game.seats
        with pytest.raises(ValueError):
            game.start_match(game.default_options(), players, 0)
    with pytest.raises(GameError, match=str(game.seats)):
        game.seats.check(game.seats.high + 1, game.title)


def test_a_shell_can_describe_the_deal_and_show_the_rules(game: Game) -> None:
    match = game.start_match(game.default_options(), game.seats.low, 0)
    plan = game.deal_plan(match)
    deal = game.new_deal(match, list(plan.pack))
    line = game.describe(deal.view(0))
    assert line and "\n" not in line
    assert game.rules_text().strip()
    assert game.parse_card(str(plan.pack[0])) == plan.pack[0]
    card_type = type(plan.pack[0])
    assert set(cards_in(deal.view(0), card_type)) <= set(plan.pack) | set(plan.set_aside)
