"""One seat's secrets for one hand, and the shares it can hand out.

Kept apart from the public record so that nothing secret is ever mixed into what an
observer (or the offline verifier) computes. A seat holds:

  x              its hand key (X = x·G); fresh per hand, opened at the audit
  shuffle        its permutation, re-randomisers and salt; opened at the audit
  own shares     D = x·A_j, computed once per position, proven on demand (a reveal),
                 and taken off a held card's ciphertext to read it
  re-mask seed   32 bytes every re-mask of the hand is drawn from; opened at the audit
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lodam_p2p.fairdeal.group import Entropy, Point, base_mul, mul, random_scalar
from lodam_p2p.fairdeal.messages import RevealMsg, TransferMsg, position_bytes
from lodam_p2p.fairdeal.proofs import Context, Proof, prove_dleq, prove_key
from lodam_p2p.fairdeal.record import SHARE_TAG, Record
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, draw_shuffle
from lodam_p2p.fairdeal.transfer import prove_switch, switch_key


@dataclass
class SeatSecrets:
    """The secrets of ``seat`` in this hand."""

    seat: int
    ctx: Context
    entropy: Entropy
    x: int
    key: Point
    shuffle: ShuffleSecret | None = None
    own: dict[int, Point] = field(default_factory=dict)
    seed: bytes | None = None

    @classmethod
    def draw(cls, seat: int, ctx: Context, entropy: Entropy) -> SeatSecrets:
        """A fresh hand key."""
        x = random_scalar(entropy)
        return cls(seat, ctx, entropy, x, base_mul(x))

    def key_proof(self) -> Proof:
        """Schnorr proof of knowledge of x, bound to this seat, hand and table."""
        return prove_key(self.ctx, self.x, self.key, self.entropy)

    def draw_shuffle(self, deck_size: int) -> ShuffleSecret:
        """Draw (once) this seat's shuffle."""
        if self.shuffle is None:
            self.shuffle = draw_shuffle(deck_size, self.entropy)
        return self.shuffle

    def remask_seed(self) -> bytes:
        """Draw (once) the seed of this seat's re-masks."""
        if self.seed is None:
            self.seed = self.entropy(32)
        return self.seed

    def share(self, record: Record, position: int) -> Point:
        """D = x·A_position (cached)."""
        if position not in self.own:
            self.own[position] = mul(record.ciphertext(position)[0], self.x)
        return self.own[position]

    def reveal(self, record: Record, position: int) -> RevealMsg:
        """This seat's share of ``position`` with a Chaum–Pedersen proof: D = x·A, proof
        that log_G X = log_A D."""
        a = record.ciphertext(position)[0]
        d = self.share(record, position)
        proof = prove_dleq(SHARE_TAG, self.ctx, x=self.x, big_x=self.key, a=a, d=d,
                           extra=position_bytes(position), entropy=self.entropy)
        return RevealMsg(position, d, proof)

    def transfer(self, record: Record, position: int, to: int) -> TransferMsg:
        """The card at ``position`` (held by this seat) re-encrypted under seat ``to``'s
        hand key, with its key-switch proof (transfer.py)."""
        new, rho = switch_key(record.held(position), self.share(record, position),
                              record.keys[to], self.entropy)
        st = record.switch_statement(self.seat, position, to, new)
        return TransferMsg(position, to, new, prove_switch(st, self.x, rho, self.entropy))

    def decrypt(self, record: Record, position: int) -> int | None:
        """The card at a position this seat holds (its held form, less this seat's own
        share); None if it is no card."""
        return record.plaintext(record.held(position), [self.share(record, position)])
