"""A Lorum match saved as plain JSON and restored plays on exactly as the original, and
a state from another peer is checked strictly (lodam_p2p.games.lorum.saved)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from lodam_p2p.games import GameMatch, get_game
from tests.games.conformance import play_deal

GAME = get_game("lorum")


def _play(players: int, assignments: list[str], seed: int, *, restore: bool
          ) -> tuple[GameMatch, list[dict[str, Any]]]:
    """A match of random play; with ``restore``, each deal is played on a match rebuilt
    from the last one's saved state (through JSON text). The states after each deal."""
    options = GAME.parse_options(assignments)
    rng = random.Random(seed)
    match = GAME.start_match(options, players, rng.randrange(players))
    states = []
    while not match.is_over:
        if restore:
            text = json.dumps(GAME.match_state(match))
            match = GAME.restore_match(options, players, json.loads(text))
        deal, _run = play_deal(GAME, match, rng, checks=False, previous=None)
        if len(states) == 2:
            GAME.breach(match, 1)  # a proven breach: the same contract is dealt again
        else:
            GAME.finish_deal(match, deal)
        states.append(GAME.match_state(match))
    return match, states


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("assignments", [
    [], ["scoring=beans", "red_king_blind=true"], ["contracts=quartet,lorum", "rounds=2"]])
def test_a_restored_match_plays_on_as_the_original(players: int,
                                                   assignments: list[str]) -> None:
    original, kept = _play(players, assignments, players, restore=False)
    restored, told = _play(players, assignments, players, restore=True)
    assert told == kept
    assert GAME.standings(restored) == GAME.standings(original)
    assert kept[-1]["breaches"] and kept[-1]["deals_played"] == len(kept)


def _good() -> dict[str, Any]:
    match, _states = _play(4, ["scoring=beans"], 7, restore=False)
    return GAME.match_state(match)


def _mangled(good: dict[str, Any], how: str) -> object:
    state = copy.deepcopy(good)
    if how == "extra":
        state["extra"] = 1
    elif how == "missing":
        del state["pot"]
    elif how == "bool":
        state["dealer"] = True
    elif how == "seat":
        state["dealer"] = 4
    elif how == "text":
        state["turn"] = "3"
    elif how == "totals":
        state["totals"][0] += 1
    elif how == "beans":
        state["beans"][0] += 1
        state["beans"][1] -= 2
    elif how == "contract":
        state["history"][0]["contract"] = "nonsense"
    elif how == "order":
        state["history"][0], state["history"][-1] = state["history"][-1], state["history"][0]
    elif how == "deals":
        state["deals_played"] += 1
    elif how == "out":
        state["history"][0]["out"] = [0, 0]
    elif how == "sale":
        state["sales"] = [[9, None]]
    elif how == "stack":
        state["stack_at"] = 32
    elif how == "list":
        return [state]
    return state


@pytest.mark.parametrize("how", ["extra", "missing", "bool", "seat", "text", "totals",
                                 "beans", "contract", "order", "deals", "out", "sale",
                                 "stack", "list"])
def test_an_unsound_state_is_refused(how: str) -> None:
    good = _good()
    options = GAME.parse_options(["scoring=beans"])
    assert GAME.match_state(GAME.restore_match(options, 4, good)) == good
    with pytest.raises(ValueError):
        GAME.restore_match(options, 4, _mangled(good, how))


def test_a_carried_stack_is_lost_on_restore_and_the_next_deal_shuffles_anew() -> None:
    options = GAME.parse_options(["contracts=first_last", "first_last_short=true"])
    match = GAME.start_match(options, 4, 0)
    deal, _run = play_deal(GAME, match, random.Random(3), checks=False, previous=None)
    GAME.finish_deal(match, deal)
    assert not GAME.reshuffles(match)  # the stack carries over to the next deal
    state = GAME.match_state(match)
    assert state["stack_at"] == 8
    restored = GAME.restore_match(options, 4, state)
    assert GAME.reshuffles(restored) and GAME.match_state(restored)["stack_at"] == 0
    assert GAME.standings(restored) == GAME.standings(match)
