"""``lodam bench deal``: one complete fair-deal hand with every seat in this process.

Every proof is made and checked, every seat verifies everything it receives, and the
hand is played the way a Losing Lodam deal uses the protocol: the talon's top is turned
for trumps (every seat reveals its share), three exchange windows see an exchange (the
first one void: both sides still learn the other card) after which both traders re-mask
their whole holding (nobody answers: a held card is under its holder's key alone), every
dealt card is played, and the audit closes it. Every shuffle and re-mask carries its
proof of shuffle, checked by every seat; ``--no-proofs`` plays the same hand without
them (shuffles and re-masks checked only at the audit), to show what the proofs cost.
The figures include the prove and verify times of one proof of shuffle over the whole
deck (``lodam bench shuffle`` measures more rounds).

CPU time is measured per seat as the process time spent inside that seat's protocol
object (its constructor, ``receive``, commands), so it is what one peer would spend on
its own machine (the process's memo of passed proof checks is off, so no seat profits
from another's). It is attributed to the phase the call moved the seat into (the call
that completes the keys and triggers the first shuffle counts for "shuffle", and so on).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bench_shuffle import measure
from lodam_p2p.fairdeal import Hand, HandConfig, Phase, Transcript, deal_schedule
from lodam_p2p.fairdeal.group import OpCounter, base_mul, mul_public, native_msm, random_scalar
from lodam_p2p.fairdeal.memo import MEMO

_LABEL = {Phase.KEYS: "keys", Phase.SHUFFLE: "shuffle", Phase.DEAL: "deal",
          Phase.PLAY: "play", Phase.AUDIT: "audit", Phase.DONE: "audit"}


def hand_size(seats: int, cards: int) -> int:
    """RULES.md section 4: floor(49/m) with 52 cards; the short-pack table with 32."""
    if cards == 52:
        return 49 // seats
    return {2: 13, 3: 9, 4: 7}.get(seats, (cards - 1) // seats)


class _Seat:
    """One seat's protocol object and the CPU it has spent, by phase."""

    def __init__(self, config: HandConfig, seat: int, identity: Ed25519PrivateKey) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        start = time.process_time()
        self.hand = Hand(config, seat, identity, os.urandom, 0.0)
        self.cpu["keys"] += time.process_time() - start

    def call(self, step: Callable[[Hand], None], label: str | None = None) -> None:
        before = self.hand.phase
        start = time.process_time()
        step(self.hand)
        spent = time.process_time() - start
        after = self.hand.phase
        if label is None:
            label = _LABEL[after if after is not Phase.PLAY else before]
            label = "deal" if before is Phase.DEAL else label
        self.cpu[label] += spent


class _Bench:
    """A table of in-process seats on a perfect broadcast."""

    def __init__(self, seats: int, cards: int, *, proofs: bool = True) -> None:
        self.proofs = proofs
        order = tuple(range(seats))
        identities = [Ed25519PrivateKey.generate() for _ in order]
        raw = tuple(k.public_key().public_bytes(serialization.Encoding.Raw,
                                                serialization.PublicFormat.Raw)
                    for k in identities)
        self.h = hand_size(seats, cards)
        schedule = deal_schedule(order, self.h, cards)
        self.config = HandConfig(os.urandom(16), 1, order, raw, cards, schedule,
                                 argument="tw" if proofs else "none")
        self.seats = [_Seat(self.config, s, identities[s]) for s in order]
        self.bytes = 0
        self.holdings = {s: list(self.config.positions_of(s)) for s in order}

    def flush(self) -> None:
        queue: deque[tuple[int, bytes]] = deque()
        while True:
            for seat in self.seats:
                queue.extend((seat.hand.seat or 0, raw) for raw in seat.hand.outgoing())
            if not queue:
                return
            sender, raw = queue.popleft()
            self.bytes += len(raw)
            for seat in self.seats:
                if seat.hand.seat != sender:
                    seat.call(_receiving(sender, raw))

    def play(self) -> None:
        self.flush()
        m = len(self.seats)
        for trick in range(self.h):
            if trick == 0:
                self._turn_trump()
            if trick < 3 and m > 1:
                self._exchange(self.seats[trick % m], self.seats[(trick + 1) % m], trick == 0)
            for seat in self.seats:
                seat.call(_revealing(self.holdings[seat.hand.seat or 0].pop(0)), "play")
                self.flush()
        for seat in self.seats:
            seat.call(lambda hand: hand.finish(0.0))
            self.flush()
        if any(seat.hand.phase is not Phase.DONE for seat in self.seats):
            raise CliError("the benchmark hand did not complete", 1)

    def _turn_trump(self) -> None:
        top = self.config.schedule.index(None)
        for seat in self.seats:
            seat.call(lambda hand: hand.reveal(top, 0.0), "play")
        self.flush()

    def _exchange(self, offerer: _Seat, acceptor: _Seat, void: bool) -> None:
        a, b = offerer.hand.seat or 0, acceptor.hand.seat or 0
        pa, pb = self.holdings[a][-1], self.holdings[b][-1]
        made: dict[int, int] = {}
        offerer.call(_handing(pa, b, made), "play")
        acceptor.call(_handing(pb, a, made), "play")
        self.flush()
        if not void:
            self.holdings[a][-1], self.holdings[b][-1] = made[a], made[b]
        for seat in (offerer, acceptor):
            seat.call(_remasking(self.holdings[seat.hand.seat or 0]), "play")
        self.flush()


def _receiving(sender: int, raw: bytes) -> Callable[[Hand], None]:
    return lambda hand: hand.receive(sender, raw, 0.0)


def _handing(position: int, to: int, made: dict[int, int]) -> Callable[[Hand], None]:
    """Hand ``position`` over to ``to``; the position the transfer made goes in ``made``."""
    def step(hand: Hand) -> None:
        made[to] = hand.transfer(position, to, 0.0)

    return step


def _remasking(held: list[int]) -> Callable[[Hand], None]:
    """Re-mask the positions in ``held`` and put the new ones in their place."""
    def step(hand: Hand) -> None:
        held[:] = hand.remask(held, 0.0)

    return step


def _revealing(position: int) -> Callable[[Hand], None]:
    return lambda hand: hand.reveal(position, 0.0)


def us_per_mult(rounds: int = 2000) -> float:
    """CPU µs of one libsecp256k1 multiplication here and now: the machine's speed, to
    read every other figure by (it varies from day to day, even within a run)."""
    point = base_mul(random_scalar(os.urandom))
    scalar = random_scalar(os.urandom)
    start = time.process_time()
    for _ in range(rounds):
        mul_public(point, scalar)
    return (time.process_time() - start) / rounds * 1e6


def run(args: argparse.Namespace) -> int:
    """Play one hand and print the figures."""
    if not 2 <= args.seats <= 10:
        raise CliError("--seats must be between 2 and 10")
    MEMO.enabled = False  # each seat pays for its own checks, as on its own machine
    bench = _Bench(args.seats, args.cards, proofs=args.proofs)
    mults_before = OpCounter.mults
    bench.play()
    mults = OpCounter.mults - mults_before
    figures = _figures(bench, mults)
    if args.transcript:
        transcript = Transcript(bench.config, tuple(bench.seats[0].hand.envelopes()))
        Path(args.transcript).write_text(transcript.to_json() + "\n", encoding="utf-8")
    print(json.dumps(figures) if args.json else _text(figures))
    return 0


def _figures(bench: _Bench, mults: int) -> dict[str, object]:
    n = len(bench.seats)
    phases = ("keys", "shuffle", "deal", "play", "audit")
    per_seat = [sum(seat.cpu.values()) * 1000 for seat in bench.seats]
    by_phase = {p: round(sum(seat.cpu[p] for seat in bench.seats) * 1000 / n, 2) for p in phases}
    return {
        "seats": n, "cards": bench.config.deck_size, "proofs": bench.proofs,
        "native_msm": native_msm(),
        "cpu_ms_per_seat": round(sum(per_seat) / n, 2),
        "cpu_ms_by_phase": by_phase,
        "bytes_per_hand": bench.bytes,
        "scalar_mults": mults,
        "us_per_scalar_mult": round(us_per_mult(), 2),
        "cpu_ms_slowest_seat": round(max(per_seat), 2),
        "scalar_mults_per_seat": round(mults / n),
        "shuffle_proof": measure(bench.config.deck_size, 3) if bench.proofs else None,
    }


def _text(f: dict[str, object]) -> str:
    by_phase = f["cpu_ms_by_phase"]
    assert isinstance(by_phase, dict)
    phases = ", ".join(f"{k} {v}" for k, v in by_phase.items())
    return "\n".join([
        f"fair-deal hand: {f['seats']} seats, {f['cards']} cards, all verified, audit included"
        + (", proven shuffles and re-masks" if f["proofs"] else ", no proofs of shuffle"),
        f"CPU per seat:   {f['cpu_ms_per_seat']} ms mean, {f['cpu_ms_slowest_seat']} ms slowest",
        f"  by phase (ms): {phases}",
        f"on the wire:    {f['bytes_per_hand']} bytes (each envelope counted once)",
        f"scalar mults:   {f['scalar_mults']} in all, {f['scalar_mults_per_seat']} per seat, "
        f"{f['us_per_scalar_mult']} µs each (a term of a sum counts as one)",
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
    parser = sub.add_parser("deal", help="CPU and bytes of one fair-deal hand",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=5, help="seats at the table (2-10)")
    parser.add_argument("--cards", type=int, choices=(52, 32), default=52)
    parser.add_argument("--no-proofs", dest="proofs", action="store_false",
                        help="the older protocol: shuffles checked only at the audit")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--transcript", metavar="FILE", help="write the hand's transcript")
    parser.set_defaults(run=run)
