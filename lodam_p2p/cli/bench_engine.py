"""``lodam bench engine``: random-bot 5-seat deals per second on one core.

With ``--game lorum``: random-bot 4-seat Lorum deals, each contract in turn.

With ``--env``: the figure a researcher feels instead, PettingZoo environment steps per
second (:mod:`lodam_p2p.rl.pettingzoo`, needs the ``rl`` extra) at ``--seats`` seats
(default 4): one agent step each (``last()`` for its observation and action mask, a
uniformly random legal action, ``step``), whole one-deal episodes, ``--deals`` of them.

Whole deals with the default options (exchange windows before every trick, swallowing,
going out at 31) between five random bots: each bot picks uniformly among the legal
moves with a seeded generator, reading them as codes (``Deal.legal_codes``) and
handing its choice back as one (``Deal.apply_code``), which the engine checks as it
would any action: the same choices, in the same order, as a bot picking among
``Deal.legal`` and calling ``Deal.apply``, without the action objects. The decks are
shuffled before the clock starts and then, with the engine's tables, moved out of the
garbage collector's sight (``gc.freeze``): tens of thousands of waiting decks are the
benchmark's own baggage, and the collector's passes over them are no cost of the
engine (it still collects what the deals make).

Two clocks: ``deals_per_s`` by the wall clock, and ``deals_per_cpu_s`` by the CPU time
of this process — on a machine busy with other work the process waits for a core, and
the wall-clock figure falls with the load while the CPU figure falls much less (caches
and clock speed are shared too, so it is no quiet-machine figure either; give the load
average beside any figure).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.games import lorum
from lodam_p2p.games.lodam import FULL_PACK, Card, Deal, Options

SEATS = 5


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench engine``."""
    parser = sub.add_parser("engine", help="rules-engine deals per second (random bots)",
                            description=__doc__)
    parser.add_argument("--game", choices=("lodam", "lorum"), default="lodam",
                        help="which game's engine (default lodam)")
    parser.add_argument("--deals", type=int, default=5000, help="deals to play (default 5000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of decks and bots")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a table option (repeatable), e.g. exchanges=off")
    parser.add_argument("--env", action="store_true",
                        help="PettingZoo environment steps per second instead (rl extra)")
    parser.add_argument("--seats", type=int, default=4,
                        help="seats at the table with --env (default 4)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print the figure."""
    if args.deals < 1:
        raise CliError("--deals must be at least 1")
    if args.env:
        return run_env(args)
    rng = random.Random(args.seed)
    gc.collect()
    try:
        if args.game == "lorum":
            lorum_options = lorum.Options.parse_assignments(args.option)
            lorum_decks = [rng.sample(lorum.PACK, len(lorum.PACK)) for _ in range(args.deals)]
            gc.freeze()
            start, cpu_start = time.perf_counter(), time.process_time()
            decisions = play_lorum_deals(lorum_options, lorum_decks, rng.random)
        else:
            options = Options.parse_assignments(args.option)
            decks = [rng.sample(FULL_PACK, len(FULL_PACK)) for _ in range(args.deals)]
            gc.freeze()
            start, cpu_start = time.perf_counter(), time.process_time()
            decisions = play_deals(options, decks, rng.random)
    except ValueError as err:
        raise CliError(str(err)) from None
    finally:
        gc.unfreeze()
    elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    figures = {
        "deals_per_s": round(args.deals / elapsed, 1),
        "deals_per_cpu_s": round(args.deals / cpu, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_deal": round(decisions / args.deals, 2),
        "deals": args.deals,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "seed": args.seed,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['deals_per_s']:.0f} deals/s ({figures['decisions_per_s']:.0f} "
              f"decisions/s, {figures['decisions_per_deal']} per deal, {args.deals} deals "
              f"in {elapsed:.2f} s; {figures['deals_per_cpu_s']:.0f} deals per CPU second)")
    return 0


def play_deals(
    options: Options, decks: Sequence[Sequence[Card]], uniform: Callable[[], float]
) -> int:
    """Play one deal per deck among random bots choosing by ``uniform()`` (a float in
    [0, 1)); the number of decisions taken."""
    lives = [options.lives] * SEATS
    decisions, floor = 0, math.floor  # floor(x) is int(x) for x ≥ 0, and a cheaper call
    for number, deck in enumerate(decks):
        deal = Deal.start(options, number % SEATS, lives, deck)
        legal_codes, apply_code = deal.legal_codes, deal.apply_code
        taken = 0  # counted per deal: small integers are not allocated
        while legal := legal_codes():  # empty once the deal is over
            apply_code(legal[floor(uniform() * len(legal))])
            taken += 1
        decisions += taken
    return decisions


def play_lorum_deals(
    options: lorum.Options, decks: Sequence[Sequence[lorum.Card]], uniform: Callable[[], float]
) -> int:
    """Play one 4-seat Lorum deal per deck, contracts in turn (those of ``options``),
    among random bots choosing by ``uniform()``; the number of decisions taken."""
    contracts = options.contracts
    decisions = 0
    for number, deck in enumerate(decks):
        contract = contracts[number % len(contracts)]
        deal = lorum.Deal.start(options, contract, number % 4, deck)
        legal_actions, apply, public = deal.legal_actions, deal.apply, deal.public
        while not public.is_over:
            legal = legal_actions()
            apply(legal[int(uniform() * len(legal))])
            decisions += 1
    return decisions


def run_env(args: argparse.Namespace) -> int:
    """Measure and print the environment figure (see the module docstring)."""
    try:
        from lodam_p2p.rl.pettingzoo import env  # noqa: PLC0415 -- the optional rl extra
    except ImportError as err:
        raise CliError(f"--env needs the rl extra (pip install 'lodam_p2p[rl]'): {err}") from None
    try:
        table = env(args.game, args.seats, options=args.option)
    except ValueError as err:
        raise CliError(str(err)) from None
    rng = random.Random(args.seed)
    table.reset(seed=args.seed)
    gc.collect()
    start, cpu_start = time.perf_counter(), time.process_time()
    steps = play_env(table, args.deals, rng.random)
    elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    figures = {
        "env_steps_per_s": round(steps / elapsed, 1),
        "env_steps_per_cpu_s": round(steps / cpu, 1),
        "steps": steps,
        "deals": args.deals,
        "seats": args.seats,
        "game": args.game,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "seed": args.seed,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['env_steps_per_s']:.0f} env steps/s ({args.game}, {args.seats} seats, "
              f"{steps} steps in {elapsed:.2f} s; {figures['env_steps_per_cpu_s']:.0f} per "
              f"CPU second)")
    return 0


def play_env(table: Any, deals: int, uniform: Callable[[], float]) -> int:
    """Play ``deals`` one-deal episodes of the environment ``table`` (reset already),
    each agent taking a random legal action by ``uniform()``; the agent steps taken."""
    steps = 0
    for number in range(deals):
        if number:
            table.reset()
        last, step = table.last, table.step
        for _ in table.agent_iter():
            observation, _, termination, truncation, _ = last()
            if termination or truncation:
                step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            step(int(legal[int(uniform() * len(legal))]))
            steps += 1
    return steps
