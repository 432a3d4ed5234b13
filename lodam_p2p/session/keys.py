"""Entropy and identities for sessions: fresh from the OS, or seeded for tests.

Each session draws everything secret (its identity key, its lot nonce, every hand key,
shuffle and offer salt) from its *own* entropy source; sessions in one process never
share one. A seeded source (:func:`seeded`) is SHA-256 in counter mode over the seed
and the seat's place, so a seeded match is reproducible yet the seats' secrets differ.

A seeded source is guessable by anyone who knows the seed is small: it is for
in-process tests only. No command passes a seed here; ``--seed`` on the command line
seeds the bots' choices and nothing secret.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

Entropy = Callable[[int], bytes]


def seeded(seed: int, place: int) -> Entropy:
    """A deterministic entropy source for the ``place``-th session of a seeded table."""
    key = hashlib.sha256(f"lodam/seeded/{seed}/{place}".encode()).digest()
    counter = 0

    def entropy(n: int) -> bytes:
        nonlocal counter
        out = b""
        while len(out) < n:
            out += hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            counter += 1
        return out[:n]

    return entropy


def entropy_for(seed: int | None, place: int) -> Entropy:
    """``os.urandom`` without a seed, else :func:`seeded`."""
    return os.urandom if seed is None else seeded(seed, place)


def new_identity(entropy: Entropy) -> Ed25519PrivateKey:
    """A fresh Ed25519 identity key."""
    return Ed25519PrivateKey.from_private_bytes(entropy(32))
