"""Shuffle arguments: the proofs of shuffle a hand can be played with, as plug-ins.

A shuffle argument proves that a list of ElGamal ciphertexts re-encrypts a permutation
of another under a known key (a :class:`Statement`: a seat's shuffle under the joint
key, a re-mask under the re-masker's hand key), without showing the permutation. The
hand names its argument in ``HandConfig.argument``; every seat proves its shuffle and
its re-masks with it, and every seat and the offline verifier check them with it.

An argument is any value with the members of :class:`ShuffleArgument`::

    name           short ASCII name, at most 16 bytes ("tw", "bg", "none", …)
    title          one line for people
    max_size       most ciphertexts one proof covers
    prove(st, secret, entropy) -> proof
    verify(st, proof) -> bool        public values only; False, never an exception
    encode(proof) -> bytes           b"" only for an argument that proves nothing
    decode(data, n) -> proof         ValueError on anything malformed
    size(n) -> int                   encoded bytes of a proof over n ciphertexts

Shipped: ``tw`` (Terelius–Wikström, ``shuffleproof.py``, the default), ``bg``
(Bayer–Groth 2012, ``bayergroth.py``: a proof of O(√N) points) and ``none`` (no proof
at all: a false shuffle or re-mask is found only by the audit, after the hand; kept for
comparison). Another package adds one with an entry point naming the value::

    [project.entry-points."lodam_p2p.shuffle_arguments"]
    myarg = "mypackage.myshuffle:ARGUMENT"

The name of the entry point must be the argument's own ``name``. The arguments bundled
with this project are declared the same way in its ``pyproject.toml`` and listed in
:data:`BUNDLED`, so that a source checkout whose install metadata predates one still
finds it. Bundled names resolve without reading any metadata; only a name nobody
bundles makes the registry look at the installed entry points (once).

On the wire the argument's encoded proof is the SHUFFLE's and REMASK's last field, and a
seat's KEY names the hand's argument unless it is one of version 3's own (``tw``,
``none``), so that seats that disagree on the argument refuse each other's first
message (check ``argument``) rather than each other's proofs (SPEC.md, section 5).
"""

from __future__ import annotations

import functools
import importlib
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.fairdeal.shuffle import ShuffleSecret
from lodam_p2p.fairdeal.shuffleproof import MAX_SIZE as TW_MAX_SIZE
from lodam_p2p.fairdeal.shuffleproof import (
    ShuffleProof,
    Statement,
    decode_proof,
    proof_size,
    prove_shuffle,
    verify_shuffle,
)

__all__ = [
    "BUNDLED",
    "DEFAULT",
    "ENTRY_POINT_GROUP",
    "LEGACY",
    "NONE",
    "TW",
    "ShuffleArgument",
    "Statement",
    "UnknownArgumentError",
    "argument_names",
    "get_argument",
    "register_argument",
]

#: The entry-point group shuffle-argument packages declare.
ENTRY_POINT_GROUP = "lodam_p2p.shuffle_arguments"
#: The argument a hand is played with when its configuration names none.
DEFAULT = "tw"
#: Arguments whose KEY message carries no name (protocol version 3's own).
LEGACY = frozenset({"tw", "none"})
#: Longest argument name (bytes of ASCII).
MAX_NAME = 16


@runtime_checkable
class ShuffleArgument(Protocol):
    """What a proof of shuffle must offer to be played with (see the module doc)."""

    name: str
    title: str
    max_size: int

    def prove(self, statement: Statement, secret: ShuffleSecret, entropy: Entropy) -> Any:
        """A proof that ``statement.outputs`` are its inputs shuffled with ``secret``."""
        ...

    def verify(self, statement: Statement, proof: Any) -> bool:
        """Whether ``proof`` shows the statement (public values; no exception)."""
        ...

    def encode(self, proof: Any) -> bytes:
        """The proof's bytes on the wire."""
        ...

    def decode(self, data: bytes, n: int) -> Any:
        """Parse a proof over ``n`` ciphertexts; ``ValueError`` if malformed."""
        ...

    def size(self, n: int) -> int:
        """Encoded bytes of a proof over ``n`` ciphertexts."""
        ...


class UnknownArgumentError(ValueError):
    """A shuffle argument nobody installed, or one that fails to load."""


class TereliusWikstrom:
    """Terelius–Wikström 2010, the permutation-matrix argument (``shuffleproof.py``):
    163·N + 293 bytes, about 8·N multiplications to prove, one sum of 8·N + 8 terms to
    verify."""

    name = "tw"
    title = "Terelius–Wikström 2010 (permutation matrix), 163·N + 293 bytes"
    max_size = TW_MAX_SIZE

    def prove(self, statement: Statement, secret: ShuffleSecret,
              entropy: Entropy) -> ShuffleProof:
        """See :func:`~lodam_p2p.fairdeal.shuffleproof.prove_shuffle`."""
        return prove_shuffle(statement, secret, entropy)

    def verify(self, statement: Statement, proof: Any) -> bool:
        """See :func:`~lodam_p2p.fairdeal.shuffleproof.verify_shuffle`."""
        return isinstance(proof, ShuffleProof) and verify_shuffle(statement, proof)

    def encode(self, proof: Any) -> bytes:
        """The commitment form (SPEC.md 4.7)."""
        if not isinstance(proof, ShuffleProof):
            raise TypeError("not a Terelius–Wikström proof")
        return proof.encode()

    def decode(self, data: bytes, n: int) -> ShuffleProof:
        """Strict parse; ``ValueError`` on a wrong size, a non-point or a non-scalar."""
        return decode_proof(data, n)

    def size(self, n: int) -> int:
        """163·N + 293."""
        return proof_size(n)


class NoArgument:
    """No proof of shuffle: the audit's re-derivation of every opened shuffle and
    re-mask is the only check (after the hand is played, and after a re-masker read a
    card it planted). Kept to show what the proofs cost."""

    name = "none"
    title = "no proof of shuffle (the audit alone checks)"
    max_size = 1 << 16

    def prove(self, statement: Statement, secret: ShuffleSecret, entropy: Entropy) -> None:
        """Nothing to prove."""
        return None

    def verify(self, statement: Statement, proof: Any) -> bool:
        """Only the absence of a proof is right."""
        return proof is None

    def encode(self, proof: Any) -> bytes:
        """Empty."""
        if proof is not None:
            raise TypeError("a table without proofs sends none")
        return b""

    def decode(self, data: bytes, n: int) -> None:
        """Only empty bytes."""
        if data:
            raise ValueError("a proof of shuffle at a table without proofs")

    def size(self, n: int) -> int:
        """Zero."""
        return 0


TW: ShuffleArgument = TereliusWikstrom()
NONE: ShuffleArgument = NoArgument()

#: The bundled arguments and their entry-point targets (also declared in pyproject.toml).
BUNDLED: dict[str, str] = {
    "tw": "lodam_p2p.fairdeal.arguments:TW",
    "none": "lodam_p2p.fairdeal.arguments:NONE",
    "bg": "lodam_p2p.fairdeal.bayergroth:ARGUMENT",
}

_registered: dict[str, ShuffleArgument] = {}


def check_name(name: str) -> None:
    """A valid argument name: 1 to 16 bytes of printable ASCII, no space."""
    if not (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name.isascii()
            and name.isprintable() and " " not in name):
        raise ValueError(f"a shuffle argument's name is 1-{MAX_NAME} ASCII characters, "
                         f"not {name!r}")


def register_argument(argument: ShuffleArgument) -> None:
    """Make ``argument`` known by its name in this process (tests, experiments): it
    takes precedence over an installed one of the same name."""
    if not isinstance(argument, ShuffleArgument):
        raise TypeError(f"{argument!r} lacks the members of a ShuffleArgument")
    check_name(argument.name)
    _registered[argument.name] = argument


@functools.cache
def _installed() -> dict[str, str]:
    """Every argument declared by an installed package, and its target."""
    return {point.name: point.value for point in entry_points(group=ENTRY_POINT_GROUP)}


def _targets(*, installed: bool) -> dict[str, str]:
    return {**BUNDLED, **(_installed() if installed else {})}


@functools.cache
def _load(name: str, target: str) -> ShuffleArgument:
    module_name, _, attribute = target.partition(":")
    try:
        value = getattr(importlib.import_module(module_name), attribute or "ARGUMENT")
    except Exception as err:  # an installed package's broken argument: one clear line
        raise UnknownArgumentError(f"shuffle argument {name!r} ({target}) failed to load: "
                                   f"{type(err).__name__}: {err}") from None
    if not isinstance(value, ShuffleArgument):
        raise UnknownArgumentError(f"shuffle argument {name!r} ({target}) lacks the "
                                   "members of a ShuffleArgument")
    if value.name != name:
        raise UnknownArgumentError(f"shuffle argument {name!r} ({target}) calls itself "
                                   f"{value.name!r}")
    return value


def get_argument(name: str) -> ShuffleArgument:
    """The argument called ``name``; :class:`UnknownArgumentError` listing the known ones."""
    if name in _registered:
        return _registered[name]
    targets = _targets(installed=name not in BUNDLED)
    if name not in targets:
        raise UnknownArgumentError(f"unknown shuffle argument {name!r} (known: "
                                   f"{', '.join(argument_names())})")
    return _load(name, targets[name])


def argument_names() -> list[str]:
    """Every argument that loads here: bundled, installed and registered, sorted (one
    that fails to load is left out; naming it says why)."""
    names = set(_targets(installed=True)) | set(_registered)
    usable = []
    for name in sorted(names):
        try:
            get_argument(name)
        except UnknownArgumentError:
            continue
        usable.append(name)
    return usable
