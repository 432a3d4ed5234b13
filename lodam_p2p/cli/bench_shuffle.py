"""``lodam bench shuffle``: prove and verify one proof of shuffle with a shuffle argument.

A deck of ``--cards`` ciphertexts under a random joint key is shuffled and the proof
made and checked ``--rounds`` times with ``--argument`` (``tw``, Terelius–Wikström, by
default; every installed argument is listed in ``--help``); the figures are the median
process (CPU) times of one shuffle (the permutation and re-encryption alone), one proof,
the parse of its bytes, and one check, with the proof's size in bytes
(``proof_bytes``). The anchor: LibTMCG proves a 52-card shuffle in 0.44 s and checks it
in 0.38 s on this kind of machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from lodam_p2p.cli import CliError
from lodam_p2p.fairdeal.arguments import (
    BUNDLED,
    DEFAULT,
    Statement,
    UnknownArgumentError,
    get_argument,
)
from lodam_p2p.fairdeal.group import base_mul, random_scalar
from lodam_p2p.fairdeal.proofs import Context
from lodam_p2p.fairdeal.shuffle import apply_shuffle, draw_shuffle, starting_deck
from lodam_p2p.fairdeal.shuffleproof import generators


def measure(cards: int, rounds: int, argument: str = DEFAULT) -> dict[str, object]:
    """Median CPU milliseconds to shuffle, prove, parse and verify ``cards`` ciphertexts
    with the named argument."""
    arg = get_argument(argument)
    generators()  # derived once per process, as in a seat
    joint = base_mul(random_scalar(os.urandom))
    deck = starting_deck(joint, cards)
    ctx = Context(os.urandom(16), 1, 0)
    times: dict[str, list[float]] = {"shuffle": [], "prove": [], "decode": [], "verify": []}
    size = 0
    for _ in range(rounds):
        secret = draw_shuffle(cards, os.urandom)
        start = time.process_time()
        out = apply_shuffle(deck, joint, secret)
        mid = time.process_time()
        statement = Statement(b"shuffle", ctx, joint, deck, out)
        data = arg.encode(arg.prove(statement, secret, os.urandom))
        proved = time.process_time()
        proof = arg.decode(data, cards)
        decoded = time.process_time()
        if not arg.verify(statement, proof):
            raise CliError(f"an honest proof of shuffle ({arg.name}) failed to verify", 1)
        done = time.process_time()
        size = len(data)
        for key, spent in (("shuffle", mid - start), ("prove", proved - mid),
                           ("decode", decoded - proved), ("verify", done - decoded)):
            times[key].append(spent)
    return {"argument": arg.name, "cards": cards, "rounds": rounds, "proof_bytes": size,
            **{f"{k}_ms": round(statistics.median(v) * 1000, 2) for k, v in times.items()}}


def argument_help() -> str:
    """``--argument``'s help: the bundled arguments (installed ones are found on use)."""
    return (f"the shuffle argument: {'|'.join(BUNDLED)}, or one an installed package "
            f"declares (default {DEFAULT})")


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    try:
        arg = get_argument(args.argument)
    except UnknownArgumentError as err:
        raise CliError(str(err)) from None
    largest = min(arg.max_size, 104)
    if not 1 <= args.cards <= largest or args.rounds < 1:
        raise CliError(f"--cards must be 1-{largest} for {arg.name} and --rounds at least 1")
    f = measure(args.cards, args.rounds, arg.name)
    if args.json:
        print(json.dumps(f))
    else:
        print(f"proof of shuffle ({f['argument']}), {f['cards']} ciphertexts, median of "
              f"{f['rounds']}: shuffle {f['shuffle_ms']} ms, prove {f['prove_ms']} ms, "
              f"parse {f['decode_ms']} ms, verify {f['verify_ms']} ms CPU; proof "
              f"{f['proof_bytes']} bytes")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench shuffle``."""
    parser = sub.add_parser("shuffle", help="prove and verify one proof of shuffle",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=52, help="ciphertexts (1-104)")
    parser.add_argument("--rounds", type=int, default=9, help="repetitions (median taken)")
    parser.add_argument("--argument", default=DEFAULT, help=argument_help())
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)
