"""The protocol's two errors, in the manner of h11.

``LocalProtocolError``: this seat's own caller asked for something illegal (a command
out of phase, a position it cannot reveal). Nobody else is to blame.

``RemoteProtocolError``: something arrived from the outside that fails a check. It names
the seat held responsible (``seat``), the failed check (``check``, a short stable word
such as ``"key-proof"`` or ``"shuffle"``) and whether the failure is *attributable*:
a signed message whose content is wrong is proof against its signer, so the hand aborts
with that seat blamed; bytes that do not even carry a valid signature for the channel
they came on (line noise, a forgery, a replay from another hand) prove nothing against
the seat whose channel carried them, so they are dropped and the hand goes on.

Anything else escaping ``receive()`` is a bug.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Blame:
    """A verdict against one seat: which check failed, and a human sentence."""

    seat: int
    check: str
    detail: str

    def __str__(self) -> str:
        return f"seat {self.seat} failed {self.check}: {self.detail}"


class ProtocolError(Exception):
    """Base of the protocol's errors."""


class LocalProtocolError(ProtocolError):
    """The local caller tried something the protocol does not allow now."""


class RemoteProtocolError(ProtocolError):
    """Input from outside failed a check; ``blame`` names the seat responsible."""

    def __init__(self, blame: Blame, *, attributable: bool = True,
                 evidence: bytes | None = None) -> None:
        super().__init__(str(blame))
        self.blame = blame
        self.attributable = attributable
        #: The blamed seat's signed envelope that failed the check, when one did (a
        #: false shuffle, re-mask, share…): anyone holding the hand's earlier messages
        #: can re-check it.
        self.evidence = evidence

    @property
    def seat(self) -> int:
        """The seat held responsible (for an unattributable error: whose channel)."""
        return self.blame.seat

    @property
    def check(self) -> str:
        """The short name of the failed check."""
        return self.blame.check


def blame(seat: int, check: str, detail: str, *, attributable: bool = True) -> RemoteProtocolError:
    """Build the remote error for ``seat`` failing ``check`` (to be raised)."""
    return RemoteProtocolError(Blame(seat, check, detail), attributable=attributable)
