"""Proofs this process has already found valid, remembered by digest.

Several protocol objects can live in one process and see the very same proofs: the
host's watcher and the seats played on the host's machine, or the offline verifier run
beside a seat. A proof check is a pure function of its statement and proof, so a check
that passed once passes again; the memo lets the second object skip the multiplications.
Only successes are remembered, keyed by SHA-256 of the complete statement and proof
(nothing is left out, so a changed byte is a new check), and at most ``size`` of them,
the oldest forgotten first.

``lodam bench deal`` turns the memo off: it runs every seat in one process but reports
what one seat would spend on its own machine.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable


class ProofMemo:
    """Digests of proof checks that passed (see the module doc)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.enabled = True
        self._passed: OrderedDict[bytes, None] = OrderedDict()

    def check(self, parts: tuple[bytes, ...], verify: Callable[[], bool]) -> bool:
        """``verify()``, unless the same statement and proof (``parts``) passed before."""
        if not self.enabled:
            return verify()
        h = hashlib.sha256()
        for part in parts:  # length-prefixed: no two different tuples hash alike
            h.update(len(part).to_bytes(4, "big") + part)
        digest = h.digest()
        if digest in self._passed:
            self._passed.move_to_end(digest)
            return True
        if not verify():
            return False
        self._passed[digest] = None
        if len(self._passed) > self.size:
            self._passed.popitem(last=False)
        return True

    def clear(self) -> None:
        """Forget every check."""
        self._passed.clear()


#: The process's memo, shared by every hand in it.
MEMO = ProofMemo()
