"""The fair-deal protocol: mental poker for one hand, as a sans-IO core.

It deals *positions* of a jointly shuffled, encrypted deck to seats, reveals positions
to all, hands positions privately from one seat to another, re-masks a seat's holding
into fresh positions nobody else can link to the old ones, and audits the whole hand
at the end; every shuffle and re-mask carries a zero-knowledge proof of shuffle that
every seat checks before it releases any decryption share. It knows no card game (see
protocol/SPEC.md). Typical use, per seat::

    hand = Hand(config, seat, identity_key, os.urandom, now, checker)
    broadcast(hand.outgoing())
    on bytes from peer:   hand.receive(peer, data, now); broadcast(hand.outgoing())
    for event in hand.events(): ...          # Dealt, CardRevealed, CardLearned, Remasked, …
    hand.reveal(position, now) / hand.finish(now)
    new = hand.transfer(position, seat, now)    # the card handed over: a new position
    new_positions = hand.remask(holding, now)   # after an exchange: unlinkable positions
    at hand.timer():      hand.handle_timer(now)

The proof of shuffle is a plug-in named in ``HandConfig.argument`` (``arguments.py``:
``tw``, the default, ``bg``, ``none``, or one an installed package declares). The
workbench ``sim.py`` runs a hand among N seats in one process with counters, a hook
that rewrites what a seat sends, and transcript export (docs/fairdeal-workbench.md).
"""

from lodam_p2p.fairdeal.config import (
    Anomaly,
    AuditChecker,
    AuditOpened,
    AuditPassed,
    CardLearned,
    CardRevealed,
    Dealt,
    Event,
    HandConfig,
    Phase,
    Remasked,
    ResendWanted,
    deal_schedule,
)
from lodam_p2p.fairdeal.errors import Blame, LocalProtocolError, ProtocolError, RemoteProtocolError
from lodam_p2p.fairdeal.hand import Hand
from lodam_p2p.fairdeal.transcript import Transcript, Verdict, verify_transcript

__all__ = [
    "Anomaly",
    "AuditChecker",
    "AuditOpened",
    "AuditPassed",
    "Blame",
    "CardLearned",
    "CardRevealed",
    "Dealt",
    "Event",
    "Hand",
    "HandConfig",
    "LocalProtocolError",
    "Phase",
    "ProtocolError",
    "Remasked",
    "RemoteProtocolError",
    "ResendWanted",
    "Transcript",
    "Verdict",
    "deal_schedule",
    "verify_transcript",
]
