"""Every decision of the Lorum bots is legal, under every contract and option."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from lodam_p2p.games.lorum import Action, Options, PlayerView
from lodam_plugins.lorum.heuristic import LorumHeuristicBot
from lodam_plugins.lorum.ismcts import lorum_ismcts
from lodam_plugins.random_bot import RandomBot
from tests.lorum_bots.runner import decks_for, run_match

OPTION_SETS: dict[str, dict[str, object]] = {
    "default": {},
    "five_points": {"first_last_points": 5},
    "short": {"first_last_short": True, "contracts": ["first_last"]},
    "sixth": {"fifth_trick": 6, "contracts": ["fifth"]},
    "blind": {"red_king_blind": True, "contracts": ["red_king"]},
    "unter": {"lorum_start": "unter", "contracts": ["lorum"]},
    "play_on": {"lorum_play_on": True, "contracts": ["lorum", "quartet"]},
    "beans": {"scoring": "beans", "contracts": ["reds", "lorum"]},
}


class Checked:
    """Wraps a bot: counts its decisions and checks each answer is legal."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.decisions = 0

    def decide(self, view: PlayerView) -> Action:
        assert view.legal, "asked without a legal action"
        action: Action = self.bot.decide(view)  # type: ignore[attr-defined]
        assert action in view.legal, (view.contract, action, view.legal)
        self.decisions += 1
        return action


def _table(players: int, seed: int, ismcts: Mapping[str, object] | None) -> list[Checked]:
    bots: list[Checked] = []
    for seat in range(players):
        if seat == 0 and ismcts is not None:
            bots.append(Checked(lorum_ismcts(seat=0, seed=seed, options=ismcts)))
        elif seat % 2:
            bots.append(Checked(LorumHeuristicBot(seat=seat, seed=seed, options={})))
        else:
            bots.append(Checked(RandomBot(seat=seat, seed=seed + seat, options={})))
    return bots


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_heuristic_and_random_always_answer_legally(name: str, players: int) -> None:
    options = Options.from_mapping(OPTION_SETS[name])
    for seed in range(4):
        dealer, decks = decks_for(seed, options, players)
        bots = _table(players, seed, None)
        totals = run_match(bots, options, dealer, decks)
        assert len(totals) == players
        if not options.red_king_blind:
            assert sum(b.decisions for b in bots) > 0


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_ismcts_always_answers_legally(name: str, players: int) -> None:
    options = Options.from_mapping(OPTION_SETS[name])
    dealer, decks = decks_for(99, options, players)
    bots = _table(players, 5, {"iterations": 3})
    run_match(bots, options, dealer, decks)
    if not options.red_king_blind:
        assert bots[0].decisions > 0


def test_blind_red_king_never_asks_a_bot() -> None:
    options = Options(red_king_blind=True, contracts=Options.from_mapping(
        {"contracts": ["red_king"]}).contracts)
    dealer, decks = decks_for(3, options, 4)
    bots = _table(4, 3, {"iterations": 3})
    run_match(bots, options, dealer, decks)
    assert sum(b.decisions for b in bots) == 0


def test_many_random_deals_every_contract() -> None:
    """Heuristic at all four seats over many seeded full rounds."""
    options = Options()
    rng = random.Random(11)
    for _ in range(6):
        seed = rng.randrange(1 << 30)
        dealer, decks = decks_for(seed, options, 4)
        bots = [Checked(LorumHeuristicBot(seat=s, seed=seed, options={})) for s in range(4)]
        run_match(bots, options, dealer, decks)
