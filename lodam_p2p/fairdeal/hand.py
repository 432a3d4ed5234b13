"""One hand of the fair-deal protocol as a sans-IO state machine.

Theory of operation. Every seat runs a ``Hand``; the offline verifier runs one with no
seat at all (an observer). Bytes come in through ``receive(sender, data, now)``; the
envelopes to broadcast come out of ``outgoing()``, what the caller should know out of
``events()``, and the next deadline out of ``timer()`` (call ``handle_timer(now)`` when
it passes). The hand reads no clock and draws no randomness of its own: ``now`` and the
``entropy`` callable are inputs.

A seat's messages form one word of the grammar

    KEY  SHUFFLE  DEAL  (REVEAL | TRANSFER | REMASK)*  AUDIT

(the transition table ``intake.SENDER_NEXT``). Messages are authenticated and put in per-sender
order as they arrive (wire.py), checked against that grammar, and then *held* until the
hand's phase can take them (``_PHASE_TAKES``, ``_takes``): a seat's shuffle waits for
the previous shuffler's, a reveal waits until every deal share is in, a re-mask until
the transfers it takes are in. The seat's own messages are produced as soon as the
phase allows (its key at once, its shuffle on its turn, its deal shares when the last
shuffle is in) or on command (``reveal``, ``transfer``, ``remask``, ``finish``) and
applied to its own record like anyone else's, without re-checking its own proofs.

A failed check on an authenticated message aborts the hand and raises
``RemoteProtocolError`` naming the seat; unauthenticated junk raises the same error
marked unattributable and changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import audit
from lodam_p2p.fairdeal.config import (
    Anomaly,
    AuditChecker,
    AuditOpened,
    AuditPassed,
    Dealt,
    Event,
    HandConfig,
    Phase,
    ResendWanted,
)
from lodam_p2p.fairdeal.errors import LocalProtocolError, RemoteProtocolError, blame
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.fairdeal.intake import Intake
from lodam_p2p.fairdeal.messages import (
    AuditMsg,
    DealMsg,
    KeyMsg,
    Kind,
    Message,
    RemaskMsg,
    RevealMsg,
    ShuffleMsg,
    TransferMsg,
    decode,
    encode,
    kind_of,
)
from lodam_p2p.fairdeal.play import PlayPhase
from lodam_p2p.fairdeal.proofs import prove_shares
from lodam_p2p.fairdeal.record import Record
from lodam_p2p.fairdeal.seat import SeatSecrets
from lodam_p2p.fairdeal.shuffle import apply_shuffle, commitment
from lodam_p2p.fairdeal.wire import GENESIS, Envelope, open_envelope
from lodam_p2p.fairdeal.wire import seal as seal_envelope

#: Most envelopes kept opened between :meth:`Hand.peek` and :meth:`Hand.receive`.
_MAX_PEEKED = 256
_PLAYING = frozenset({Kind.REVEAL, Kind.TRANSFER, Kind.REMASK, Kind.AUDIT})
#: Which kinds the hand can take in each phase (others wait in their sender's queue).
_PHASE_TAKES: dict[Phase, frozenset[Kind]] = {
    Phase.KEYS: frozenset({Kind.KEY}),
    Phase.SHUFFLE: frozenset({Kind.SHUFFLE}),
    Phase.DEAL: frozenset({Kind.DEAL}),
    Phase.PLAY: _PLAYING,
    Phase.AUDIT: _PLAYING,
    Phase.DONE: frozenset(),
    Phase.ABORTED: frozenset(),
}


class Hand(PlayPhase):
    """The protocol for one hand, at one seat (or, with ``seat=None``, as an observer)."""

    def __init__(
        self,
        config: HandConfig,
        seat: int | None,
        identity: Ed25519PrivateKey | None,
        entropy: Entropy | None,
        now: float,
        *,
        checker: AuditChecker | None = None,
        lazy: bool = False,
    ) -> None:
        """Start the hand; a seat's key message is ready in ``outgoing()`` at once.

        ``lazy`` (an observer only): take proofs of shuffle unchecked until
        :meth:`vigilant` is called, or until a card it shows rests on one. A seat must
        check a shuffle's proof before it deals, and a re-mask's before anything rests
        on it; an observer answers nothing, and checks them all when a seat claims a
        cheat, reaching the seats' verdict on the same envelopes."""
        self.config = config
        self.seat = seat
        if lazy and seat is not None:
            raise LocalProtocolError("only an observer may leave proofs unchecked")
        self.record = Record(config, lazy=lazy)
        self.phase = Phase.KEYS
        self.blame: RemoteProtocolError | None = None
        self._checker = checker
        self._identity = identity
        self._peers = dict(zip(config.seats, config.identities, strict=True))
        self._intake = Intake(config.seats, seat)
        self._since = now
        self._reveal_since: dict[int, float] = {}
        self._openings: dict[int, AuditMsg] = {}
        self._events: list[Event] = []
        self._out: list[bytes] = []
        self._sent: list[bytes] = []
        #: envelopes opened by :meth:`peek`, awaiting :meth:`receive` (raw → opened)
        self._peeked: dict[bytes, tuple[Envelope, Message]] = {}
        #: Cards this seat knows: its deal and what transfers handed it (position → card).
        self.cards: dict[int, int] = {}
        self._me: SeatSecrets | None = None
        if seat is not None:
            if identity is None or entropy is None or seat not in config.seats:
                raise LocalProtocolError("a seat needs its place, identity key and entropy")
            self._me = SeatSecrets.draw(seat, self.record.ctx(seat), entropy)
            self._send(KeyMsg(self._me.key, self._me.key_proof(), self.record.argument_tag()),
                       now)

    # --- the caller's interface ----------------------------------------------------------

    def receive(self, sender: int, data: bytes, now: float) -> None:
        """Take one envelope that arrived on ``sender``'s channel."""
        self._check_live()
        if sender == self.seat:
            return  # our own broadcast echoed back
        if sender not in self._intake.logs:
            raise blame(sender, "envelope", "no such seat in this hand", attributable=False)
        peeked = self._peeked.pop(data, None)
        if peeked is not None and peeked[0].seat == sender:
            env, message = peeked
        else:
            env, message = self._open(sender, data), None
        self._guarded(lambda: self._accept(env, now, message))

    def vigilant(self) -> None:
        """Check the proofs of shuffle a lazy observer left unchecked,
        and every later one as it comes; ``RemoteProtocolError`` (the hand aborted) names
        the first sender whose proof fails. Nothing to do for a seat, or once the hand
        has aborted."""
        if self.phase is not Phase.ABORTED:
            self._guarded(self.record.check_unchecked)

    def peek(self, sender: int, data: bytes) -> Message | None:
        """The message in ``data`` if it is an envelope ``sender`` signed for this hand,
        else None; nothing is taken. A caller that looks at an envelope before handing
        it to :meth:`receive` pays for the signature check and the decoding once: the
        opened envelope is kept until ``receive`` takes it (or the hand ends)."""
        if sender not in self._peers:
            return None
        kept = self._peeked.get(data)
        if kept is not None and kept[0].seat == sender:
            return kept[1]  # looked at before (the session screens, then takes)
        try:
            env = self._open(sender, data)
            message = decode(env.body)
        except (RemoteProtocolError, ValueError, KeyError):
            return None
        if sender != self.seat and len(self._peeked) < _MAX_PEEKED:
            self._peeked[env.raw] = (env, message)
        return message

    def _open(self, sender: int, data: bytes) -> Envelope:
        return open_envelope(data, sender, self._peers[sender], self.config.table_id,
                             self.config.hand)

    def outgoing(self) -> list[bytes]:
        """Envelopes to broadcast, oldest first (each is returned once)."""
        out, self._out = self._out, []
        return out

    def events(self) -> list[Event]:
        """What happened since the last call, oldest first."""
        out, self._events = self._events, []
        return out

    def timer(self) -> float | None:
        """When the hand gives up on a silent seat, or None if it waits for nobody."""
        waiting = self.awaited()
        return waiting[1] + self.config.timeout if waiting else None

    def handle_timer(self, now: float) -> None:
        """Blame the seat the hand waits for, if its deadline has passed."""
        self._check_live()
        waiting = self.awaited()
        if waiting and now >= waiting[1] + self.config.timeout:
            seats, _, what = waiting
            err = blame(seats[0], "timeout", f"no {what} within {self.config.timeout:g} s")
            self._abort(err)
            raise err

    def awaited(self) -> tuple[list[int], float, str] | None:
        """The seats the hand waits for (other than this one), since when, and for what."""
        remote = [s for s in self.config.seats if s != self.seat]
        rec = self.record
        if self.phase is Phase.KEYS:
            return self._waiting([s for s in remote if s not in rec.keys], self._since, "key")
        if self.phase is Phase.SHUFFLE:
            return self._waiting([s for s in remote if s == rec.next_shuffler()], self._since,
                                 "shuffle")
        if self.phase is Phase.DEAL:
            return self._waiting([s for s in remote if s not in rec.dealt], self._since, "deal")
        if self.phase is Phase.AUDIT:
            return self._waiting([s for s in remote if s not in self._openings], self._since,
                                 "audit opening")
        if self.phase is Phase.PLAY:
            return self._awaited_in_play(remote)
        return None

    @staticmethod
    def _waiting(seats: list[int], since: float, what: str) -> tuple[list[int], float, str] | None:
        return (seats, since, what) if seats else None

    def wanted(self) -> dict[int, int]:
        """The next sequence number wanted from each other seat (to ask for a resend)."""
        return self._intake.wanted()

    def sent_since(self, seq: int) -> list[bytes]:
        """This seat's envelopes from ``seq`` on, to send again on request."""
        return self._sent[seq:]

    def opened(self) -> set[int]:
        """Seats whose audit opening has been taken."""
        return set(self._openings)

    def envelopes(self) -> list[tuple[int, bytes]]:
        """Every envelope of the hand taken so far (sender, bytes): the transcript."""
        return list(self._intake.transcript)

    # --- commands ---------------------------------------------------------------------

    def check_with(self, checker: AuditChecker) -> None:
        """Judge the audit with ``checker`` from now on (a carried deck's current deal)."""
        self._checker = checker

    def deal_on(self, schedule: tuple[int | None, ...], now: float) -> None:
        """Deal the next deal of a carried deck: the same keys and shuffled deck, the
        positions of ``schedule`` dealt now (each seat's deal shares for them, proven as
        in the first deal), the positions dealt before out of play.

        Allowed in play before anybody has opened: a carried deck's earlier deals never
        open the keys (every card they dealt was played, or the deal was void), so the
        positions not dealt yet stay secret from everyone. A position dealt before and
        not played stays its owner's secret, out of play."""
        self._check_live()
        if self.phase is not Phase.PLAY or self._openings:
            raise LocalProtocolError(f"a carried deck deals on only in play, not "
                                     f"{self.phase.value}")
        old = self.config.schedule
        if len(schedule) != len(old) or any(
                seat is not None and (old[j] is not None or j in self.record.revealed)
                for j, seat in enumerate(schedule)):
            raise LocalProtocolError("a carried deck deals only positions never dealt")
        self.config = replace(self.config, schedule=schedule)
        self.record.config = self.config
        self.record.dealt = set()
        self._reveal_since.clear()
        self._enter(Phase.DEAL, now)
        self._send_deal(now)
        self._pump(now)

    def finish(self, now: float) -> None:
        """End the hand: open this seat's hand key, shuffle and re-mask seed."""
        me = self._commanding(None)
        if self.seat in self._openings:
            raise LocalProtocolError("already opened")
        assert me.shuffle is not None
        s = me.shuffle
        self._act(AuditMsg(me.x, s.permutation, s.randomness, s.salt, me.remask_seed()), now)

    # --- intake -------------------------------------------------------------------------

    def _check_live(self) -> None:
        if self.phase is Phase.ABORTED:
            raise LocalProtocolError(f"the hand was aborted: {self.blame}")

    def _guarded(self, step: Callable[[], None]) -> None:
        try:
            step()
        except RemoteProtocolError as err:
            if not err.attributable:
                raise
            first = self._earlier(err)
            self._abort(first)
            if first is err:
                raise
            raise first from None

    def _earlier(self, err: RemoteProtocolError) -> RemoteProtocolError:
        """The verdict an eager observer would have reached: a lazy one judges the proofs
        it took unchecked, all taken before ``err``'s message, before any later offence."""
        if not self.record.unchecked:
            return err
        try:
            self.record.check_unchecked()
        except RemoteProtocolError as first:
            return first
        return err

    def _abort(self, err: RemoteProtocolError) -> None:
        self.phase = Phase.ABORTED
        self.blame = err

    def _accept(self, env: Envelope, now: float, message: Message | None = None) -> None:
        gap = self._intake.accept(env, message)
        if gap is not None:
            self._events.append(ResendWanted(env.seat, gap))
        self._pump(now)

    def _pump(self, now: float) -> None:
        for seat, env, msg in self._intake.ready(self._takes):
            try:
                self._apply(seat, env.seq, msg, now, trusted=False)
            except RemoteProtocolError as err:
                if err.seat == seat and err.evidence is None:
                    err.evidence = env.raw  # the signed message that failed
                raise

    def _takes(self, seat: int, msg: Message) -> bool:
        kind, rec = kind_of(msg), self.record
        if kind not in _PHASE_TAKES[self.phase]:
            return False
        match msg:
            case ShuffleMsg():
                return rec.next_shuffler() == seat
            case DealMsg():
                return seat not in rec.dealt  # a carried deck's next deal waits for it
            case RemaskMsg():
                return rec.remask_ready(seat, msg)
        return True

    def _act(self, msg: Message, now: float) -> None:
        def step() -> None:
            self._send(msg, now)
            self._pump(now)

        self._guarded(step)

    def _send(self, msg: Message, now: float) -> None:
        assert self.seat is not None and self._identity is not None
        seq = len(self._sent)
        prev = self._digest_of_last_sent()
        raw = seal_envelope(self._identity, encode(msg), table_id=self.config.table_id,
                            hand=self.config.hand, seat=self.seat, seq=seq, prev=prev)
        self._out.append(raw)
        self._sent.append(raw)
        self._intake.follow(self.seat, kind_of(msg))
        self._intake.transcript.append((self.seat, raw))
        self._apply(self.seat, seq, msg, now, trusted=True)

    def _digest_of_last_sent(self) -> bytes:
        return hashlib.sha256(self._sent[-1]).digest() if self._sent else GENESIS

    # --- applying messages ----------------------------------------------------------------

    def _apply(self, seat: int, seq: int, msg: Message, now: float, *, trusted: bool) -> None:
        match msg:
            case KeyMsg():
                self._on_key(seat, msg, now, trusted)
            case ShuffleMsg():
                self._on_shuffle(seat, msg, now, trusted)
            case DealMsg():
                self._on_deal(seat, msg, now, trusted)
            case RevealMsg():
                self._on_reveal(seat, msg, now, trusted)
            case TransferMsg():
                self._on_transfer(seat, seq, msg, trusted)
            case AuditMsg():
                self._on_audit(seat, msg, now, trusted)
            case RemaskMsg():
                self._on_remask(seat, msg, now, trusted)

    def _enter(self, phase: Phase, now: float) -> None:
        self.phase = phase
        self._since = now

    def _on_key(self, seat: int, msg: KeyMsg, now: float, trusted: bool) -> None:
        self.record.add_key(seat, msg, trusted=trusted)
        if self.record.joint is not None:
            self._enter(Phase.SHUFFLE, now)
            self._shuffle_if_my_turn(now)

    def _shuffle_if_my_turn(self, now: float) -> None:
        rec = self.record
        if self._me is None or rec.next_shuffler() != self.seat:
            return
        assert rec.joint is not None
        secret = self._me.draw_shuffle(self.config.deck_size)
        deck = apply_shuffle(rec.final_deck, rec.joint, secret)
        committed = commitment(self._me.ctx, secret)
        proof = b""
        if self.config.proofs:
            st = rec.shuffle_statement(self._me.seat, deck, committed)
            argument = rec.argument
            proof = argument.encode(argument.prove(st, secret, self._me.entropy))
        self._send(ShuffleMsg(deck, committed, proof), now)

    def _on_shuffle(self, seat: int, msg: ShuffleMsg, now: float, trusted: bool) -> None:
        self.record.add_shuffle(seat, msg, trusted=trusted)
        self._since = now  # the next shuffler's clock starts now
        if self.record.next_shuffler() is None:
            self._enter(Phase.DEAL, now)
            self._send_deal(now)
        else:
            self._shuffle_if_my_turn(now)

    def _send_deal(self, now: float) -> None:
        me = self._me
        if me is None:
            return
        rec = self.record
        shares = tuple(me.share(rec, j) for j in self.config.shared_by(me.seat))
        entries = rec.deal_entries(me.seat, shares)
        proof = prove_shares(me.ctx, me.x, me.key, entries, me.entropy) if entries else None
        self._send(DealMsg(shares, proof), now)

    def _on_deal(self, seat: int, msg: DealMsg, now: float, trusted: bool) -> None:
        self.record.add_deal(seat, msg, trusted=trusted)
        if len(self.record.dealt) == len(self.config.seats):
            self._enter(Phase.PLAY, now)
            self._learn_own_cards()

    def _learn_own_cards(self) -> None:
        if self._me is None:
            return
        cards = {}
        for position in self.config.positions_of(self._me.seat):
            card = self._me.decrypt(self.record, position)
            if card is None:
                self._events.append(Anomaly(position))
            else:
                cards[position] = card
        self.cards.update(cards)
        self._events.append(Dealt(cards))

    def _on_audit(self, seat: int, msg: AuditMsg, now: float, trusted: bool) -> None:
        if not trusted:
            audit.check_opening(self.record, seat, msg)
        self._openings[seat] = msg
        if self.phase is Phase.PLAY:
            self._enter(Phase.AUDIT, now)
        if seat != self.seat:
            self._events.append(AuditOpened(seat))
        if len(self._openings) == len(self.config.seats):
            self._conclude()

    def _conclude(self) -> None:
        deal = audit.full_deal(self.config, self._openings)
        masked = audit.masked_cards(self.record, self._openings, deal)
        audit.check_consistent(self.record, deal, masked)
        verdict = self._checker(deal, masked) if self._checker else None
        if verdict is not None:
            raise RemoteProtocolError(verdict)
        self.phase = Phase.DONE
        self._events.append(AuditPassed(deal, masked))
