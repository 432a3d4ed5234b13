"""Generator of the golden replay files in ``tests/rules/data``.

Run ``python -m tests.rules.golden`` to rewrite them after an intended change of the
engine (then review the diff!). Scenarios are whole deals between seeded random choices
over a spread of options; about half of the default decisions are left out of the
scripts, so the files also exercise the replay format's default rule. A few are cut
short or carry an illegal move, to pin the error fields.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from lodam_p2p.games.lodam import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Challenge,
    Deal,
    Declare,
    Offer,
    Options,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.replay import replay_scenario

DATA = Path(__file__).parent / "data"
INPUT = DATA / "golden.jsonl"
EXPECTED = DATA / "golden.expected.jsonl"

#: (players, lives or None, options) of each golden table
TABLES: list[tuple[int, list[int] | None, dict[str, Any]]] = [
    (5, None, {}),
    (5, None, {}),
    (3, None, {"exchanges": "first_trick"}),
    (4, None, {"exchanges": "off", "rank_order": "parlett"}),
    (6, [3, 0, 2, 1, 0, 3], {"declare_out": True}),
    (4, None, {"declare_out": True, "out_at": 20, "hand_size": 5}),
    (5, None, {"trump_memory": True}),
    (4, [2, 0, 1, 3], {"short_deck_at": 3}),
    (3, [1, 1, 1], {"winning": True, "lives": 2}),
    (10, None, {}),
    (2, None, {"exchanges": "off"}),
    (7, [1, 1, 1, 1, 1, 1, 1], {"out_at": 15}),
]


def to_json(action: Action) -> dict[str, Any]:
    """An action in the replay format."""
    seat = action.seat
    if isinstance(action, Play):
        return {"seat": seat, "play": str(action.card)}
    if isinstance(action, Offer):
        return {"seat": seat, "offer": None if action.card is None else str(action.card)}
    if isinstance(action, Answer):
        if action.card is None:
            return {"seat": seat, "decline": True}
        return {"seat": seat, "accept": str(action.card)}
    if isinstance(action, Swallow):
        return {"seat": seat, "swallow": action.take}
    if isinstance(action, Declare):
        if action.challenge is None:
            return {"seat": seat, "declare_out": action.out}
        return {"seat": seat, "declare_out": action.out, "challenge": action.challenge}
    assert isinstance(action, Challenge)
    return {"seat": seat, "challenge": action.target}


def scenario(number: int, players: int, lives: list[int] | None,
             options: dict[str, Any]) -> dict[str, Any]:
    """One golden scenario from a seeded random deal."""
    rng = random.Random(number)
    opts = Options.from_mapping(options)
    real_lives = lives or [0 if opts.winning else opts.lives] * players
    active = sum(1 for x in real_lives if x > 0 or opts.winning)
    pack = list(SHORT_PACK if opts.short_deck(active) else FULL_PACK)
    rng.shuffle(pack)
    dealer = rng.randrange(players)
    deal = Deal.start(opts, dealer, real_lives, pack)
    script = []
    while not deal.is_over:
        legal = deal.legal_actions()
        # lean towards the default so that deals see both kinds of choice
        action = legal[0] if len(legal) > 1 and rng.random() < 0.4 else rng.choice(legal)
        deal.apply(action)
        if action != deal_default(legal) or rng.random() < 0.5:
            script.append(to_json(action))
    out: dict[str, Any] = {"game": "lodam", "players": players, "dealer": dealer,
                           "options": options, "deck": [str(c) for c in pack]}
    if lives is not None:
        out["lives"] = lives
    out["actions"] = script
    return out


def deal_default(legal: list[Action]) -> Action | None:
    """The default among ``legal`` (listed first), unless it is a play."""
    return None if isinstance(legal[0], Play) else legal[0]


def spoil(scenarios: list[dict[str, Any]]) -> None:
    """Cut one script short, add surplus actions to one, and break one with a revoke."""
    scenarios[1]["actions"] = scenarios[1]["actions"][:20]
    scenarios[3]["actions"] = [*scenarios[3]["actions"], {"seat": 0, "play": "2S"}]
    plays = [i for i, a in enumerate(scenarios[0]["actions"]) if "play" in a]
    scenarios[0]["actions"][plays[12]] = {"seat": scenarios[0]["actions"][plays[12]]["seat"],
                                          "play": "AS"}


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(scenarios, expected results)."""
    scenarios = [scenario(i, *table) for i, table in enumerate(TABLES)]
    spoil(scenarios)
    return scenarios, [replay_scenario(s) for s in scenarios]


def main() -> None:
    """Rewrite the golden files."""
    scenarios, results = build()
    INPUT.write_text("".join(json.dumps(s) + "\n" for s in scenarios))
    EXPECTED.write_text("".join(json.dumps(r) + "\n" for r in results))


if __name__ == "__main__":
    main()
