"""A hand's transcript: its public configuration and every envelope, checkable offline.

File format (JSON, UTF-8)::

    {"format": "lodam-fairdeal-transcript", "version": 3,
     "table_id": hex (16 bytes), "hand": int, "seats": [int, …],
     "identities": [hex (32 bytes), …], "deck_size": 2 … 104,
     "schedule": [int | null, …], "timeout": float,
     "argument": "tw" | "bg" | "none" | another installed shuffle argument,
     "proofs": bool (whether the argument proves anything),
     "envelopes": [[seat, hex], …]}

A transcript without ``argument`` (written before arguments were named) is read by its
``proofs``: ``tw`` when true or absent, ``none`` when false; one with both must have them
agree.

Envelopes may be in any order: the verifier orders each sender's chain itself. The
verifier is a ``Hand`` with no seat, fed every envelope: it makes every check a seat
makes, plus those only the audit openings allow (transfers, shuffles, re-masks).

A verdict is *attributable* when it convicts a seat on a message that seat signed (SPEC.md
section 8): only then does it name a guilty seat. An envelope whose signature, size,
version or context fails proves nothing against anyone: the verifier drops it, as a
seat would, and goes on; if the hand cannot be completed without it, or a seat's
message is simply absent, the transcript is incomplete (``missing``), which is not
evidence either (a transcript cannot prove silence).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from lodam_p2p.fairdeal.arguments import get_argument
from lodam_p2p.fairdeal.config import AuditChecker, AuditPassed, HandConfig, Phase
from lodam_p2p.fairdeal.errors import Blame, RemoteProtocolError
from lodam_p2p.fairdeal.hand import Hand
from lodam_p2p.fairdeal.proofs import VERSION

FORMAT = "lodam-fairdeal-transcript"


@dataclass(frozen=True, slots=True)
class Transcript:
    """The public inputs of a hand and its envelopes (sender, bytes)."""

    config: HandConfig
    envelopes: tuple[tuple[int, bytes], ...]

    def to_json(self) -> str:
        """The transcript file's text."""
        c = self.config
        return json.dumps({
            "format": FORMAT, "version": VERSION, "table_id": c.table_id.hex(), "hand": c.hand,
            "seats": list(c.seats), "identities": [k.hex() for k in c.identities],
            "deck_size": c.deck_size, "schedule": list(c.schedule), "timeout": c.timeout,
            "argument": c.argument, "proofs": c.proofs,
            "envelopes": [[seat, raw.hex()] for seat, raw in self.envelopes],
        }, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Transcript:
        """Parse a transcript file; ``ValueError`` naming what is wrong."""
        try:
            obj = json.loads(text)
            if obj.get("format") != FORMAT:
                raise ValueError("not a lodam fair-deal transcript")
            if obj.get("version") != VERSION:
                raise ValueError(f"a transcript of protocol version {obj.get('version')!r}; "
                                 f"this is version {VERSION}")
            config = HandConfig(
                bytes.fromhex(obj["table_id"]), _int(obj["hand"]),
                tuple(_int(s) for s in obj["seats"]),
                tuple(bytes.fromhex(k) for k in obj["identities"]), _int(obj["deck_size"]),
                tuple(None if s is None else _int(s) for s in obj["schedule"]),
                float(obj["timeout"]), _argument(obj),
            )
            get_argument(config.argument)  # installed here, or the file is unreadable
            envelopes = tuple((_int(s), bytes.fromhex(raw)) for s, raw in obj["envelopes"])
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"malformed transcript: {err!r}") from None
        return cls(config, envelopes)


def _argument(obj: dict[str, object]) -> str:
    proofs = _bool(obj.get("proofs", True))
    name = obj.get("argument")
    if name is None:
        return "tw" if proofs else "none"
    if not isinstance(name, str) or proofs != (name != "none"):
        raise ValueError(f"argument {name!r} and proofs {proofs} disagree")
    return name


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, found {value!r}")
    return value


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected an integer, found {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of checking a transcript."""

    sound: bool
    blame: Blame | None
    summary: str
    deal: tuple[int, ...] | None = None
    masked: Mapping[int, int] | None = None
    evidence: bytes | None = None  #: the blamed seat's signed envelope that failed
    #: whether ``blame`` convicts its seat on a message the seat signed (the guilty seat)
    attributable: bool = False
    #: envelopes dropped as unattributable (bad signature, size, version or context)
    dropped: tuple[Blame, ...] = ()

    @property
    def guilty(self) -> int | None:
        """The seat convicted, only where the evidence is attributable."""
        return self.blame.seat if self.attributable and self.blame is not None else None


def verify_transcript(transcript: Transcript, checker: AuditChecker | None = None) -> Verdict:
    """Check every signature, chain, proof, shuffle and transfer of a hand."""
    config = transcript.config
    observer = Hand(config, None, None, None, 0.0, checker=checker)
    dropped: list[Blame] = []
    for seat, raw in transcript.envelopes:
        try:
            observer.receive(seat, raw, 0.0)
        except RemoteProtocolError as err:
            if err.attributable:
                return Verdict(False, err.blame, str(err.blame), evidence=err.evidence,
                               attributable=True, dropped=tuple(dropped))
            dropped.append(err.blame)
    passed = [e for e in observer.events() if isinstance(e, AuditPassed)]
    if observer.phase is Phase.DONE and passed:
        deal, masked = passed[-1].deal, passed[-1].masked
        remasks = len(observer.record.remasks)
        return Verdict(True, None, f"sound: {len(config.seats)} seats, {config.deck_size} cards, "
                       f"{len(transcript.envelopes)} envelopes, {remasks} re-masks, "
                       + (f"proofs of shuffle ({config.argument}) checked, " if config.proofs
                          else "no proofs of shuffle, ")
                       + "audit passed"
                       + (f" ({len(dropped)} unattributable envelope(s) dropped)"
                          if dropped else ""),
                       deal, masked, dropped=tuple(dropped))
    missing = _missing(observer)
    summary = f"incomplete, no seat convicted: {missing.detail} (seat {missing.seat})"
    if dropped:
        summary += (f"; {len(dropped)} envelope(s) dropped as unattributable, the first: "
                    f"{dropped[0]}")
    return Verdict(False, missing, summary, dropped=tuple(dropped))


def _missing(observer: Hand) -> Blame:
    waiting = observer.awaited()
    if waiting is not None:
        seats, _, what = waiting
        return Blame(seats[0], "missing", f"the transcript ends while waiting for its {what}")
    seat = next(s for s in observer.config.seats if s not in observer.opened())
    return Blame(seat, "missing", "the hand was never audited: no opening from this seat")
