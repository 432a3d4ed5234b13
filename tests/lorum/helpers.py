"""Shared helpers of the Lorum tests: decks, random scripts, scenario objects."""

from __future__ import annotations

import random
from typing import Any

from lodam_p2p.games.lorum import (
    PACK,
    SHORT_PACK,
    Action,
    Announce,
    Card,
    Contract,
    Deal,
    Lay,
    Options,
    Play,
)
from lodam_p2p.games.lorum.replay import action_to_json

CONTRACT_NAMES = [c.value for c in Contract]


def deck_for(players: int, rng: random.Random) -> list[Card]:
    """A shuffled deck: 32 cards, or the 30 without 7S 8S for three players."""
    pack = PACK if players == 4 else SHORT_PACK
    return rng.sample(pack, len(pack))


def cards(text: str) -> list[Card]:
    """``"7E 8E …"`` as cards."""
    return [Card.parse(t) for t in text.split()]


def deck_from_hands(players: int, dealer: int, hands: dict[int, str]) -> list[str]:
    """The deck (top first) that deals ``hands`` (seat → cards in dealt order)."""
    by_seat = {s: h.split() for s, h in hands.items()}
    size = len(by_seat[0])
    deck = []
    for i in range(size):
        for k in range(players):
            deck.append(by_seat[(dealer + 1 + k) % players][i])
    return deck


def random_script(
    options: Options, *, contract: Contract, players: int, dealer: int, deck: list[Card],
    rng: random.Random,
) -> tuple[list[dict[str, Any]], list[tuple[int, str, list[Any]]]]:
    """A random legal deal by the engine: (the replay actions, and each decision's
    (seat, kind, legal answers as the referee writes them))."""
    deal = Deal.start(options, contract, dealer, deck, players=players)
    script: list[dict[str, Any]] = []
    asked: list[tuple[int, str, list[Any]]] = []
    while not deal.is_over:
        legal = deal.legal_actions()
        seat = deal.to_act
        assert seat is not None
        kind = deal.awaiting.value if deal.awaiting else ""
        asked.append((seat, kind, [_plain(a) for a in legal]))
        action = rng.choice(legal)
        if not isinstance(action, Announce) or action.announced:
            script.append(action_to_json(action))
        deal.apply(action)
    return script, asked


def _plain(action: Action) -> Any:
    if isinstance(action, Announce):
        return action.announced
    assert isinstance(action, Play | Lay)
    return str(action.card)


def scenario(
    players: int, dealer: int, contract: str, deck: list[Any], *,
    actions: list[dict[str, Any]], options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A replay scenario object."""
    return {
        "game": "lorum", "players": players, "dealer": dealer, "contract": contract,
        "options": options or {}, "deck": [str(c) for c in deck], "actions": actions,
    }
