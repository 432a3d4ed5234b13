"""Generate the Lorum hand vectors in protocol/vectors/ (deterministic).

    python protocol/gen_lorum_vectors.py           # (re)write the vectors
    python protocol/gen_lorum_vectors.py --check   # exit 1 if a file differs from a fresh run

Each vector is one whole Lorum deal at a networked table (SPEC.md 14), played by the
table's own hand machines (``lodam_p2p.session.gamehand.GameHand``), one per seat and a
watcher, with every seat choosing its first legal action. Entropy comes from
``lodam_p2p.fairdeal.sim.drbg(seed)`` as in ``gen_vectors.py``; identities from fixed
seeds; the file text and ``--check`` from ``vectors_common.py``. A vector holds:

- ``config``: the fair-deal configuration as a transcript file's header;
- ``bodies``: every session body in the order each seat sent it (hex of its encoding:
  KEY … as PROTO, each MOVE with its reveal, the NOTES with the step it was sent at);
- ``moves``: the moves as the table took them (seat, kind, args, deck position);
- ``deal``: the card index at every deck position, and each seat's cards, as the audit
  opened them; ``points``: the deal's result; ``verdict``: the offline verifier's line.

Beside each vector, ``*.transcript.json`` is the same hand as ``lodam verify`` reads it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Transcript, verify_transcript
from lodam_p2p.fairdeal.sim import drbg
from lodam_p2p.games import get_game
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.handtypes import Route
from lodam_p2p.session.wire import Body, Msg, raw_public

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling module below
from vectors_common import render, write_or_check

__all__ = ["build_all", "main", "render"]

TABLE = bytes.fromhex("6c6f72756d2d766563746f72732d3031")  # "lorum-vectors-01"
GAME = get_game("lorum")

#: (file stem, seats, options, first dealer)
HANDS = (
    ("lorum_quartet_4seats", 4, ("contracts=quartet",), 1),
    ("lorum_rows_3seats", 3, ("contracts=lorum",), 2),
)


class _Table:
    """The seats' and a watcher's hand machines, passing bodies in each sender's order."""

    def __init__(self, players: int, options: tuple[str, ...], dealer: int) -> None:
        self.match = GAME.start_match(GAME.parse_options(options), players, dealer)
        seats = range(players)
        self.seeds = {s: hashlib.sha256(b"lorum vector seat" + bytes([s])).digest()
                      for s in seats}
        ids = {s: Ed25519PrivateKey.from_private_bytes(self.seeds[s]) for s in seats}
        identities = tuple(raw_public(ids[s]) for s in seats)
        self.hands: dict[int | None, GameHand] = {
            s: GameHand(GAME, self.match, identities, s, table_id=TABLE, hand=1,
                        identity=ids.get(s) if s is not None else None,
                        entropy=drbg(b"lorum vector entropy" + bytes([s or 0])), now=0.0,
                        timeout=30.0)
            for s in [*seats, None]}
        #: per receiver, per sender, the bodies not taken yet
        self.queues: dict[int | None, dict[int, deque[Body]]] = {
            r: {s: deque() for s in seats} for r in self.hands}
        self.sent: list[tuple[int, Body]] = []
        self.moves: list[list[Any]] = []

    def send(self, seat: int, body: Body) -> None:
        self.sent.append((seat, body))
        for queues in self.queues.values():
            queues[seat].append(body)

    def drain(self) -> None:
        for seat, hand in self.hands.items():
            bodies, hand.outbox = hand.outbox, []
            if seat is not None:
                for body in bodies:
                    self.send(seat, body)

    def run(self) -> None:
        moved = True
        while moved:
            moved = False
            self.drain()
            for receiver, hand in self.hands.items():
                for sender, queue in self.queues[receiver].items():
                    while queue:
                        route = hand.route(sender, queue[0])
                        if route is Route.WAIT:
                            break
                        body = queue.popleft()
                        moved = True
                        if route is Route.TAKE:
                            if receiver is None and body.kind is Msg.MOVE:
                                self.moves.append([sender, *body.args])
                            hand.screen(sender, body)
                            hand.take(sender, body, 0.0)
                self.drain()
            for seat, hand in self.hands.items():
                if seat is not None and hand.my_turn():
                    body = hand.act(hand.view().legal[0], 0.0)
                    self.drain()
                    self.send(seat, body)
                    moved = True


def lorum_vector(players: int, options: tuple[str, ...], dealer: int
                 ) -> tuple[dict[str, Any], Transcript]:
    """One whole deal, every seat playing its first legal action; (vector, transcript)."""
    table = _Table(players, options, dealer)
    table.run()
    watcher = table.hands[None]
    assert all(h.audited for h in table.hands.values()), "the deal did not end audited"
    config = watcher.config
    transcript = Transcript(config, tuple(watcher.fair.envelopes()))
    verdict = verify_transcript(transcript)
    assert verdict.sound and verdict.deal is not None, verdict.summary
    deal = watcher.full
    summary = GAME.finish_deal(table.match, deal)
    pack = watcher.deal.plan.pack
    vector = {
        "seats": players, "options": list(options), "dealer": dealer,
        "identity_seeds": {str(s): table.seeds[s].hex() for s in range(players)},
        "entropy_seeds": {str(s): (b"lorum vector entropy" + bytes([s])).hex()
                          for s in range(players)},
        "pack": [str(card) for card in pack],
        "set_aside": [str(card) for card in watcher.deal.plan.set_aside],
        "config": json.loads(Transcript(config, ()).to_json()),
        "bodies": [[seat, body.encode().hex()] for seat, body in table.sent],
        "moves": table.moves,
        "deal": list(verdict.deal),
        "hands": {str(s): [str(pack[verdict.deal[p]]) for p in watcher.deal.plan.positions_of(s)]
                  for s in range(players)},
        "points": list(summary.points),
        "verdict": verdict.summary,
    }
    return vector, transcript


def build_all() -> dict[str, Any]:
    """Every Lorum vector file's content, by file name."""
    out: dict[str, Any] = {}
    for stem, players, options, dealer in HANDS:
        vector, transcript = lorum_vector(players, options, dealer)
        out[f"{stem}.json"] = vector
        out[f"{stem}.transcript.json"] = json.loads(transcript.to_json())
    return out


def main(argv: list[str]) -> int:
    """Write the vectors, or with ``--check`` say which are stale (exit 1)."""
    return write_or_check(build_all(), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
