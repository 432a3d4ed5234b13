"""The attacks of ``lodam adversary``: one malicious seat's ways to cheat, one class each.

By family: on the fair-deal envelopes (:mod:`.envelope`), on the table's rules
(:mod:`.rules`), on its clocks and on coming back (:mod:`.returns`), and floods below the
session (:mod:`.floods`), on the lobby (:mod:`.lobby`); :mod:`.base` holds what they
share. :data:`ATTACKS` maps each kind to its class, in the order ``lodam adversary
--list`` prints them.

These attacks are for people who test fair-deal protocols (and for this project's own
tests): each is one thing a seated peer with valid keys can send. A table that works
as protocol/SPEC.md says refuses each of them, or convicts the attacker on the evidence,
and never blames an honest seat.
"""

from __future__ import annotations

from lodam_p2p.redteam.attacks.base import Attack, envelope_kind, relink, reseal
from lodam_p2p.redteam.attacks.envelope import (
    BadKeyProof,
    BadShareProof,
    DeckReplace,
    Equivocation,
    ForeignSeatEnvelope,
    ForgedTransfer,
    RemaskSteal,
    ReplayOtherHand,
    ReplayOtherTable,
    RevealHeldCard,
    ShuffleCommitmentMismatch,
    ShuffleDrop,
    ShuffleDuplicate,
)
from lodam_p2p.redteam.attacks.floods import (
    EarlyFrameFlood,
    ForeignResend,
    OversizedFrame,
    ResendFlood,
)
from lodam_p2p.redteam.attacks.lobby import FakeAnnouncement
from lodam_p2p.redteam.attacks.returns import (
    AwayToggle,
    FutureStepVote,
    LeaveWhileLeading,
    LoneTimeoutVote,
    RejoinMulligan,
    ResumeSameHand,
    StrayTimeoutVote,
)
from lodam_p2p.redteam.attacks.rules import (
    EarlyAuditOpen,
    FalseExchangeClaim,
    PredictableSeed,
    Revoke,
    SlowHuman,
    StaleHandFrame,
    Stall,
    VoidAnyone,
    WithheldAuditOpening,
)

__all__ = ["ATTACKS", "Attack", "envelope_kind", "relink", "reseal"]

ATTACKS: dict[str, type[Attack]] = {a.kind: a for a in (
    VoidAnyone, EarlyAuditOpen, SlowHuman, PredictableSeed, BadKeyProof, BadShareProof,
    ShuffleDrop, ShuffleDuplicate, ShuffleCommitmentMismatch, DeckReplace,
    RemaskSteal, ForgedTransfer, RevealHeldCard, ReplayOtherHand,
    ReplayOtherTable, Equivocation, FalseExchangeClaim, WithheldAuditOpening, Stall, Revoke,
    RejoinMulligan, LoneTimeoutVote, ResumeSameHand, LeaveWhileLeading, ResendFlood,
    EarlyFrameFlood, AwayToggle, FutureStepVote, StrayTimeoutVote, ForeignSeatEnvelope,
    ForeignResend, OversizedFrame, StaleHandFrame, FakeAnnouncement)}
