"""An offline Lorum match runner for measuring bots (the arena proper is elsewhere).

``run_match`` plays one match with the given bot factories on seats, dealing decks
from a seeded generator; :func:`rotated` plays the same decks with the seats rotated so
that every bot sits in every chair. Run as a script for the win-share figures::

    python -m tests.lorum_bots.runner --bots heuristic,random,random,random --matches 300
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence

from lodam_p2p.games.lorum import PACK, SHORT_PACK, Card, Match, Options, PlayerView
from lodam_p2p.games.lorum.actions import Action

Factory = Callable[..., object]


def decks_for(seed: int, options: Options, players: int) -> tuple[int, list[list[Card]]]:
    """The first dealer and every deck a match may need (one per deal), from ``seed``."""
    rng = random.Random(seed)
    pack = PACK if players == 4 else SHORT_PACK
    count = len(options.contracts) * options.rounds * players
    decks = []
    for _ in range(count):
        deck = list(pack)
        rng.shuffle(deck)
        decks.append(deck)
    return rng.randrange(players), decks


def run_match(
    bots: Sequence[object], options: Options, first_dealer: int, decks: list[list[Card]],
    by_contract: dict[str, list[int]] | None = None,
) -> list[int]:
    """Play one match; the totals per seat. Each bot's answer is checked against the
    legal list before it is applied. ``by_contract``, when given, sums each seat's
    points per contract."""
    match = Match.start(options, len(bots), first_dealer)
    turn = 0
    while not match.is_over:
        plan = match.plan()
        deal = match.new_deal(decks[turn] if plan.fresh else None)
        turn += 1
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view: PlayerView = deal.view(seat)
            action: Action = bots[seat].decide(view)  # type: ignore[attr-defined]
            if action not in view.legal:
                raise AssertionError(f"seat {seat} answered {action} not in {view.legal}")
            deal.apply(action)
        result = match.finish_deal(deal)
        if by_contract is not None:
            row = by_contract.setdefault(result.contract.value, [0] * len(bots))
            for seat, gained in enumerate(result.points):
                row[seat] += gained
    return list(match.totals)


def win_shares(totals: Sequence[int]) -> list[float]:
    """Each seat's share of the win: the lowest total wins, ties share."""
    best = min(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(totals))]


def rotated(
    factories: Sequence[Factory], options: Options, seed: int,
    bot_options: Mapping[int, Mapping[str, object]] | None = None,
    by_contract: dict[str, list[int]] | None = None,
) -> tuple[list[float], list[int]]:
    """Play the same decks once per rotation of the seats; per *bot* (factory position):
    summed win shares and summed points (and, in ``by_contract``, points per contract)."""
    n = len(factories)
    dealer, decks = decks_for(seed, options, n)
    shares, points = [0.0] * n, [0] * n
    for shift in range(n):
        seat_of = [(b + shift) % n for b in range(n)]
        bots: list[object] = [None] * n
        for b, factory in enumerate(factories):
            opts = (bot_options or {}).get(b, {})
            bots[seat_of[b]] = factory(seat=seat_of[b], seed=seed * 31 + b, options=opts)
        seats: dict[str, list[int]] = {}
        totals = run_match(bots, options, dealer, decks, seats)
        if by_contract is not None:
            for name, row in seats.items():
                mine = by_contract.setdefault(name, [0] * n)
                for b in range(n):
                    mine[b] += row[seat_of[b]]
        share = win_shares(totals)
        for b in range(n):
            shares[b] += share[seat_of[b]]
            points[b] += totals[seat_of[b]]
    return shares, points


def _factory(name: str) -> Factory:
    if name == "random":
        from lodam_plugins.random_bot import RandomBot
        return RandomBot
    if name == "heuristic":
        from lodam_plugins.lorum.heuristic import LorumHeuristicBot
        return LorumHeuristicBot
    if name == "ismcts":
        from lodam_plugins.lorum.ismcts import lorum_ismcts
        return lorum_ismcts
    raise SystemExit(f"unknown bot {name!r} (random, heuristic, ismcts)")


def main(argv: list[str] | None = None) -> int:
    """Win shares of the first bot against the others, seats rotated over the same decks."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--bots", default="heuristic,random,random,random")
    parser.add_argument("--matches", type=int, default=100, help="deck sets (× rotations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=10, help="report every N deck sets")
    parser.add_argument("--option", action="append", default=[], help="Lorum option k=v")
    parser.add_argument("--bot-option", action="append", default=[], help="k=v for bot 0")
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    factories = [_factory(n) for n in names]
    options = Options.parse_assignments(args.option)
    bot0: dict[str, object] = {}
    for item in args.bot_option:
        key, _, value = item.partition("=")
        bot0[key] = json.loads(value)
    shares, points = [0.0] * len(names), [0] * len(names)
    started = time.perf_counter()
    games = 0
    contracts: dict[str, list[int]] = {}
    for m in range(args.matches):
        s, p = rotated(factories, options, args.seed * 100003 + m, {0: bot0}, contracts)
        games += len(names)
        for b in range(len(names)):
            shares[b] += s[b]
            points[b] += p[b]
        if (m + 1) % args.every == 0 or m + 1 == args.matches:
            share0 = shares[0] / games
            half = 1.96 * (share0 * (1 - share0) / games) ** 0.5
            print(f"{games} matches: {names[0]} win share {share0:.3f} ± {half:.3f}, "
                  f"mean points {[round(x / games, 2) for x in points]}, "
                  f"{time.perf_counter() - started:.0f}s", flush=True)
            per = {name: [round(x / games, 2) for x in row] for name, row in contracts.items()}
            print(f"  points per match by contract: {per}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
