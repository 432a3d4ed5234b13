"""Generator of the Lorum golden replay files in ``tests/lorum/data``.

Run ``python -m tests.lorum.golden`` to rewrite them after an intended change of the
engine (then review the diff!). Scenarios are whole deals between seeded random choices,
every contract at three and four seats over a spread of options; a few are cut short or
carry an illegal move, to pin the error fields, and a few carry actions past the end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from lodam_p2p.games.lorum import Contract, Options
from lodam_p2p.games.lorum.replay import replay_scenario
from tests.lorum.helpers import deck_for, random_script, scenario

DATA = Path(__file__).parent / "data"
INPUT = DATA / "golden.jsonl"
EXPECTED = DATA / "golden.expected.jsonl"

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"first_last_points": 5, "fifth_trick": 6, "lorum_start": "unter"},
    {"red_king_blind": True, "lorum_play_on": True, "scoring": "beans"},
    {"lorum_start": "unter", "lorum_play_on": True, "first_last_short": True, "rounds": 2},
]


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(scenarios, their replay results), deterministically."""
    rng = random.Random(20260901)
    scenarios = []
    for number in range(64):
        players = 3 + number % 2
        contract = list(Contract)[number // 2 % 8]
        raw = OPTION_SETS[number // 16]
        dealer = rng.randrange(players)
        deck = deck_for(players, rng)
        script, _ = random_script(Options.from_mapping(raw), contract=contract,
                                  players=players, dealer=dealer, deck=deck, rng=rng)
        script = _spoil(script, number, rng)
        scenarios.append(scenario(players, dealer, contract.value, deck, actions=script,
                                  options=raw))
    return scenarios, [replay_scenario(s) for s in scenarios]


def _spoil(script: list[dict[str, Any]], number: int, rng: random.Random) -> list[
    dict[str, Any]
]:
    """Every fifth scenario cut short, every seventh with a wrong card, every eleventh
    with actions past the end."""
    if number % 5 == 4 and script:
        return script[: rng.randrange(len(script))]
    if number % 7 == 6 and script:
        spoilt = [dict(a) for a in script]
        at = rng.randrange(len(spoilt))
        if "play" in spoilt[at]:
            spoilt[at]["play"] = spoilt[-1].get("play", "AE") if at != len(spoilt) - 1 else "7E"
        return spoilt
    if number % 11 == 10:
        return [*script, {"seat": 0, "play": "AE"}, {"seat": 1, "announce": True}]
    return script


def main() -> None:
    """Rewrite the golden files."""
    scenarios, results = build()
    DATA.mkdir(exist_ok=True)
    INPUT.write_text("".join(json.dumps(s) + "\n" for s in scenarios))
    EXPECTED.write_text("".join(json.dumps(r) + "\n" for r in results))


if __name__ == "__main__":
    main()
