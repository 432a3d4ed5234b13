"""Judging a hand's messages: a seat's message taken by the hand, a claim (VOID) checked
on its evidence, and the verdict when a signed message proves an offence.

:class:`HandJudge` is a part the table machine owns and calls (its ``judge``), reaching
it only through :class:`JudgeTable`. Every message of the hand goes to the hand machine
(:class:`~lodam_p2p.session.handmachine.HandMachine`); what the hand refuses is dropped
with the reason logged, what it proves (a failed proof, two signed messages for one
step, a rules offence found by the audit) is an offence the machine acts on
(:meth:`JudgeTable.offence`, :mod:`.course`). A claim is never a verdict by itself: its
evidence is fed to the hand here, and only what convicts here counts (protocol/SPEC.md,
"Evidence and blame"). Every check is public, so every honest peer holding the same
signed envelopes reaches the same verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from lodam_p2p.fairdeal import Blame, LocalProtocolError, RemoteProtocolError
from lodam_p2p.session.audit import RULES_OFFENCES
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.handplay import Blamed, Refused
from lodam_p2p.session.link import proves_fork
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.wire import Body

__all__ = ["HandJudge", "JudgeTable"]

#: Checks every peer makes alike with no claim to prompt it: the audit opening's (every
#: peer sees the same opening), and a transfer's key-switch proof, which every peer,
#: followers included, checks as it arrives.
_AUDIT_CHECKS = frozenset({"audit-key", "shuffle", "shuffle-commitment", "remask",
                           "remask-commitment", "transfer"})
#: Checks a proof of shuffle fails as it arrives (also the audit's, once seats opened).
_PROVEN = frozenset({"shuffle", "remask"})


class JudgeTable(Protocol):
    """What the judge of a hand's messages reads and calls on the table machine."""

    table: str
    roster: Roster | None
    match: Any  #: the game's match (None until the lot is drawn)
    hand: HandMachine | None  #: the hand under way (None between hands)

    def now(self) -> float: ...
    def ignore(self, peer: str, reason: str) -> None: ...
    def active(self) -> tuple[bool, ...]: ...
    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None: ...


class HandJudge:
    """Takes the hand's messages and claims, and convicts on what they prove."""

    def __init__(self, table: JudgeTable) -> None:
        self.table = table

    def hand_message(self, seat: int, body: Body) -> None:
        """Take ``seat``'s message of the hand under way (routed TAKE)."""
        t = self.table
        hand = t.hand
        assert hand is not None

        def take() -> None:
            hand.screen(seat, body)
            hand.take(seat, body, t.now())

        self.checked(f"seat {seat}", take)

    def checked(self, peer: str, work: Callable[[], object]) -> bool:
        """Run ``work`` on the hand; True if it convicted a seat (now out)."""
        t = self.table
        try:
            work()
        except Refused as err:
            t.ignore(peer, str(err))
        except Blamed as err:
            earlier = self.earlier_offence()
            if earlier is not None:
                self.protocol_failure(earlier)
            else:
                t.offence(err.blame, err.evidence)
            return True
        except RemoteProtocolError as err:
            self.protocol_failure(self.earlier_offence() or err)
            return True
        except LocalProtocolError as err:
            t.ignore(peer, f"out of place for the hand: {err}")
        return False

    def earlier_offence(self) -> RemoteProtocolError | None:
        """A follower that took proofs unchecked convicts on the first of them that fails
        rather than on a later offence: the verdict the seats reached (SPEC.md 12)."""
        hand = self.table.hand
        return None if hand is None else hand.earlier_offence()

    def protocol_failure(self, err: RemoteProtocolError) -> None:
        """A signed message failed a check (as it arrived, or at the audit): an offence.

        Every check the fair-deal hand makes on an attributable message is public: any
        peer holding the same signed envelopes reaches the same verdict."""
        hand = self.table.hand
        assert hand is not None
        # A proof that fails as it arrives is judged by every seat on its own, but a
        # follower that answers nothing (the host's watcher) takes proofs of shuffle
        # (the deck's and the re-masks') unchecked until a claim comes: the claim
        # carries the failed proof so that it checks too.
        arrived = err.check in _PROVEN and not hand.fair.opened()
        at_audit = not arrived and (
            (hand.verdict is not None and err.blame == hand.verdict)
            or err.check in _AUDIT_CHECKS or err.check in RULES_OFFENCES)
        evidence = () if at_audit else hand.last_fed.get(err.blame.seat, ())
        self.table.offence(err.blame, evidence)

    def claim(self, peer: str, body: Body) -> None:
        """A VOID from seat ``peer``: check its evidence here (SPEC.md, "Evidence").

        A claim naming no other seat of the hand, or carrying no evidence at all, is
        false on its face (an honest seat claims only with evidence): its own signer is
        put out. Evidence that does not convict here (yet) is logged and ignored."""
        t = self.table
        blamed, reason = body.args
        hand, match = t.hand, t.match
        seat = t.roster.seat_of(peer) if t.roster is not None else None
        if hand is None or match is None or seat is None or not t.active()[seat]:
            return
        signed = [e for e in body.envelopes if hand.signed_by(blamed, e) is not None]
        if blamed == seat or blamed not in hand.config.seats or not body.envelopes:
            t.offence(Blame(seat, "false-claim", f"claimed seat {blamed} cheated, "
                            "without evidence"), announce=False)
            return
        assert t.roster is not None
        if proves_fork(body.envelopes, t.table, t.roster.sitters[blamed].peer):
            t.offence(Blame(blamed, "equivocation", "two signed frames at one position "
                            "of its stream"), announce=False)
            return
        # Only envelopes at steps this seat already took from the named seat are fed:
        # they can show a second version of one (equivocation, which a seat may show to
        # one peer alone) but never move the hand ahead of the named seat's own bodies.
        # The rest this seat judges when they come from their signer.
        evidence = tuple(e for e in signed if hand.taken_from(blamed, e))

        def judge() -> None:
            # a follower that took proofs unchecked checks them first: the claim's
            # evidence may be a message it took without its check
            hand.vigilant()
            hand.feed(blamed, evidence, t.now(), own=False)

        if not self.checked(peer, judge):
            t.ignore(peer, f"VOID naming seat {blamed} with evidence that does not "
                     f"convict here: {reason}")
