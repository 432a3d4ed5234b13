"""``lodam bench deal``: a fair-deal hand with every seat in this process.

Every proof is made and checked and every seat verifies everything it receives, on the
shipped harness (``lodam_p2p.fairdeal.sim``, see docs/fairdeal-workbench.md). Two
workloads:

``hand`` (the default) plays the hand the way a Losing Lodam deal uses the protocol:
the talon's top is turned for trumps (every seat reveals its share), three exchange
windows see an exchange (the first one void: both sides still learn the other card)
after which both traders re-mask their whole holding, every dealt card is played, and
the audit closes it. Its deck is a game's: 52 or 32 cards, each seat dealt as Lodam
deals (RULES.md section 4).

``deal`` stops when every seat holds its cards: keys, the m shuffles, the deal shares
(m + 2 rounds, 3m envelopes). Any deck from 2 to 104 cards (``--hand-size`` cards each,
by default Lodam's count for 52 and 32 cards and otherwise as many as leave a talon).

Every shuffle and re-mask is proven with ``--argument`` (``tw``, Terelius–Wikström, by
default; ``none``: checked only at the audit, to show what the proofs cost;
``--no-proofs`` says the same). The figures include the prove and verify times of one
proof of shuffle over the whole deck (``lodam bench shuffle`` measures more rounds).

CPU time is measured per seat as the process time spent inside that seat's protocol
object (its constructor, ``receive``, commands), so it is what one peer would spend on
its own machine (the process's memo of passed proof checks is off, so no seat profits
from another's). It is attributed to the phase the call moved the seat into (the call
that completes the keys and triggers the first shuffle counts for "shuffle", and so
on). ``rounds`` counts broadcast rounds, ``envelopes`` signed messages, and
``critical_path_ms`` the sequential CPU along the longest chain of messages (each seat
on its own processor, no network delay). ``scalar_mults`` counts whole multiplications
(one libsecp256k1 call each); the terms of the verifiers' multi-scalar sums are counted
apart (``msm_terms``, ``msm_short_terms`` for 128-bit weights) as are the audit's
fixed-base products, and ``equivalent_mults`` adds them at their measured cost (a term
half a multiplication, a short term a quarter, a fixed-base product half).

``--repeat N`` plays N hands: every time is then the median, and ``spread`` gives the
smallest, the largest and every run's value.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bench_shuffle import argument_help, measure
from lodam_p2p.fairdeal import Phase, sim
from lodam_p2p.fairdeal.arguments import DEFAULT, UnknownArgumentError, get_argument
from lodam_p2p.fairdeal.config import MAX_DECK, MIN_DECK
from lodam_p2p.fairdeal.group import base_mul, mul_public, native_msm, random_scalar
from lodam_p2p.fairdeal.memo import MEMO

#: Seats a benchmark table may have.
MIN_SEATS, MAX_SEATS = 2, 16
#: Deck sizes of the ``hand`` workload (a game's).
HAND_DECKS = (52, 32)
#: Times taken as medians over ``--repeat`` runs.
_TIMES = ("cpu_ms_per_seat", "cpu_ms_slowest_seat", "critical_path_ms")


def hand_size(seats: int, cards: int) -> int:
    """RULES.md section 4: floor(49/m) with 52 cards; the short-pack table with 32; any
    other deck: as many each as leave one card or more in the talon."""
    if cards == 52:
        return 49 // seats
    if cards == 32:
        return {2: 13, 3: 9, 4: 7}.get(seats, (cards - 1) // seats)
    return (cards - 1) // seats


def play_once(args: argparse.Namespace) -> sim.Sim:
    """One hand of the chosen workload, timed by the process clock."""
    size = args.hand_size if args.hand_size is not None else hand_size(args.seats, args.cards)
    config, keys = sim.table(args.seats, args.cards, hand_size=size, argument=args.argument,
                             table_id=os.urandom(16))
    bench = sim.run(config, keys, args.workload, entropy=lambda _seat: os.urandom,
                    clock=time.process_time)
    end = Phase.PLAY if args.workload == "deal" else Phase.DONE
    if any(h.phase is not end for h in bench.hands.values()) or bench.convictions:
        raise CliError("the benchmark hand did not complete", 1)
    return bench


def us_per_mult(rounds: int = 2000) -> float:
    """CPU µs of one libsecp256k1 multiplication here and now: the machine's speed, to
    read every other figure by (it varies from day to day, even within a run)."""
    point = base_mul(random_scalar(os.urandom))
    scalar = random_scalar(os.urandom)
    start = time.process_time()
    for _ in range(rounds):
        mul_public(point, scalar)
    return (time.process_time() - start) / rounds * 1e6


def _check(args: argparse.Namespace) -> None:
    try:
        get_argument(args.argument)
    except UnknownArgumentError as err:
        raise CliError(str(err)) from None
    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        raise CliError(f"--seats must be between {MIN_SEATS} and {MAX_SEATS}")
    if args.workload == "hand" and args.cards not in HAND_DECKS:
        raise CliError(f"the hand workload plays a game's deck: --cards "
                       f"{' or '.join(map(str, HAND_DECKS))} (any of {MIN_DECK}-{MAX_DECK} "
                       "with --workload deal)")
    if not MIN_DECK <= args.cards <= MAX_DECK:
        raise CliError(f"--cards must be {MIN_DECK}-{MAX_DECK}")
    if args.hand_size is not None and not 0 <= args.hand_size * args.seats <= args.cards:
        raise CliError("--hand-size times --seats must not exceed --cards")
    if args.repeat < 1:
        raise CliError("--repeat must be at least 1")


def run(args: argparse.Namespace) -> int:
    """Play the hands and print the figures."""
    if not args.proofs:
        args.argument = "none"
    _check(args)
    MEMO.enabled = False  # each seat pays for its own checks, as on its own machine
    runs: list[sim.Sim] = []
    try:
        for _ in range(args.repeat):
            runs.append(play_once(args))
    except ValueError as err:  # a deck the argument's proof cannot carry in one body
        raise CliError(str(err)) from None
    figures = _figures(args, [r.figures() for r in runs])
    if args.transcript:
        Path(args.transcript).write_text(runs[-1].transcript().to_json() + "\n",
                                         encoding="utf-8")
    print(json.dumps(figures) if args.json else _text(figures))
    return 0


def _figures(args: argparse.Namespace, runs: list[dict[str, Any]]) -> dict[str, Any]:
    first = runs[0]
    figures = dict(first)
    for key in _TIMES:
        figures[key] = round(statistics.median(r[key] for r in runs), 2)
    figures["cpu_ms_by_phase"] = {
        p: round(statistics.median(r["cpu_ms_by_phase"][p] for r in runs), 2)
        for p in sim.PHASES}
    arg = get_argument(args.argument)
    figures.update({
        "workload": args.workload, "proofs": args.argument != "none",
        "repeat": len(runs), "native_msm": native_msm(),
        "us_per_scalar_mult": round(us_per_mult(), 2),
        "scalar_mults_per_seat": round(first["scalar_mults"] / first["seats"]),
        "spread": {key: {"median": figures[key], "min": min(r[key] for r in runs),
                         "max": max(r[key] for r in runs), "runs": [r[key] for r in runs]}
                   for key in _TIMES},
        "shuffle_proof": (measure(args.cards, 3, arg.name)
                          if args.argument != "none" and args.cards <= arg.max_size
                          else None),
    })
    return figures


def _text(f: dict[str, Any]) -> str:
    phases = ", ".join(f"{k} {v}" for k, v in f["cpu_ms_by_phase"].items())
    what = ("audit included" if f["workload"] == "hand" else "deal only, until every seat "
            "holds its cards")
    spread = f["spread"]["cpu_ms_per_seat"]
    return "\n".join([
        f"fair-deal {f['workload']}: {f['seats']} seats, {f['cards']} cards, all verified, "
        f"{what}, " + (f"proven shuffles and re-masks ({f['argument']})" if f["proofs"]
                       else "no proofs of shuffle"),
        f"CPU per seat:   {f['cpu_ms_per_seat']} ms mean, {f['cpu_ms_slowest_seat']} ms slowest"
        + (f" (median of {f['repeat']}: {spread['min']}-{spread['max']} ms)"
           if f["repeat"] > 1 else ""),
        f"  by phase (ms): {phases}",
        f"critical path:  {f['critical_path_ms']} ms in {f['rounds']} broadcast rounds",
        f"on the wire:    {f['envelopes']} envelopes, {f['bytes_per_hand']} bytes "
        "(each envelope counted once)",
        f"scalar mults:   {f['scalar_mults']} whole, {f['msm_terms']} + "
        f"{f['msm_short_terms']} short terms of sums, {f['fixed_base_products']} fixed-base: "
        f"≈ {f['equivalent_mults']} multiplications ({f['equivalent_mults_per_seat']} per "
        f"seat), {f['us_per_scalar_mult']} µs each",
        "native sums:    " + ("yes, the verifier's multi-scalar multiplication" if f["native_msm"]
                              else "no: the C extension was not built, proofs check more slowly"),
        *_proof_line(f["shuffle_proof"]),
    ])


def _proof_line(proof: object) -> list[str]:
    if not isinstance(proof, dict):
        return []
    return [f"one proof:      {proof['cards']} cards, prove {proof['prove_ms']} ms, "
            f"verify {proof['verify_ms']} ms, {proof['proof_bytes']} bytes"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench deal``."""
    parser = sub.add_parser("deal", help="CPU, rounds and bytes of one fair-deal hand",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=5,
                        help=f"seats at the table ({MIN_SEATS}-{MAX_SEATS})")
    parser.add_argument("--cards", type=int, default=52,
                        help=f"deck size: 52 or 32 for the hand workload, {MIN_DECK}-{MAX_DECK} "
                        "for the deal")
    parser.add_argument("--workload", choices=("hand", "deal"), default="hand",
                        help="the scripted Lodam hand (default) or the deal alone")
    parser.add_argument("--hand-size", type=int, help="cards dealt to each seat")
    parser.add_argument("--argument", default=DEFAULT, help=argument_help())
    parser.add_argument("--no-proofs", dest="proofs", action="store_false",
                        help="the same as --argument none: shuffles checked only at the audit")
    parser.add_argument("--repeat", type=int, default=1,
                        help="hands to play (times are medians, with their spread)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--transcript", metavar="FILE", help="write the (last) hand's transcript")
    parser.set_defaults(run=run)
