"""What a stream endpoint learns from the echoes: the hash chain across the table.

Hash chain (protocol/SPEC.md, "The broker and strangers"). Each DATA frame names the
digest of the one before it (``prev``), and every DATA and STATUS frame echoes the
positions its sender has reached of each other stream followed (``heads``). The
receiver keeps the last positions of each stream (:mod:`.chain`) and reports what they
show — a signer's fork (two frames at one position: evidence against it), a split view,
a replay nobody asked for, a frame withheld from it alone — as
:class:`~lodam_p2p.transport.chain.StreamFault` records
(:meth:`ChainEchoes.faults`). An echo of a position not yet received also raises that
sender's high-water mark, so a frame the broker kept from this receiver alone is asked
for at once; an echo of our own stream tells how far each peer has reached
(``reached``), which a link waits on before it closes.

:class:`ChainEchoes` is that part of a
:class:`~lodam_p2p.transport.stream.StreamEndpoint`, which owns it as ``chain``: it
reads the endpoint's outbox and inboxes (the same objects), keeps the faults and echoes
itself, and asks the endpoint only whether a sender is a stranger (whose echoes count
for nothing) and to ask for a missing frame — two functions it is given.
"""

from __future__ import annotations

from collections.abc import Callable

from lodam_p2p.transport.chain import MAX_FAULTS, WITHHELD_ASKS, StreamFault
from lodam_p2p.transport.frames import HEAD_PREFIX, MAX_HEADS, Head
from lodam_p2p.transport.streamends import Inbox, Outbox, epoch_of


class ChainEchoes:
    """The echoes of a stream endpoint (see the module docstring).

    ``outbox`` and ``inboxes`` are the endpoint's own (read, never replaced);
    ``stranger`` tells whether a sender is one, ``ask`` queues a RESEND to an inbox's
    sender if one is due; ``max_ahead`` is how far past the expected number an echo may
    raise a sender's high-water mark.
    """

    def __init__(self, me: str, epoch: int, outbox: Outbox, inboxes: dict[str, Inbox], *,
                 max_ahead: int, stranger: Callable[[str], bool],
                 ask: Callable[[Inbox, float], None]) -> None:
        self.me, self.epoch = me, epoch
        self._outbox, self._inboxes, self._max_ahead = outbox, inboxes, max_ahead
        self._stranger, self._ask_if_due = stranger, ask
        #: faults the chain showed, over the endpoint's life (at most MAX_FAULTS kept)
        self.faults_seen = 0
        #: per peer, the farthest position of our stream it has echoed (with our digest)
        self.reached: dict[str, int] = {}
        self._faults: list[StreamFault] = []
        #: per sender followed, the last position we echoed (a DATA frame echoes only
        #: what moved since, see :meth:`heads`)
        self._echoed: dict[str, int] = {}
        self._owners: dict[str, str | None] | None = None

    def followed_changed(self) -> None:
        """The senders followed changed: name prefixes are looked up afresh."""
        self._owners = None

    def forget(self, sender: str) -> None:
        """``sender`` is no longer followed: nothing of it is echoed."""
        self._echoed.pop(sender, None)

    def heads(self, *, moved_only: bool = False) -> tuple[Head, ...]:
        """What we echo: for each peer followed (no stranger), the last position
        delivered of its stream and that frame's digest.

        ``moved_only`` (our DATA frames): only the streams whose position moved since we
        last echoed them. Every position we reach is still echoed in the next frame we
        send, so a split shows within a step as before; a heartbeat (STATUS) echoes them
        all again. A frame of a five-seat table carries one or two heads instead of four,
        some 10 KB less per hand."""
        heads: list[Head] = []
        for sender, inbox in self._inboxes.items():
            last = inbox.positions.last()
            if last is None or self._stranger(sender):
                continue
            if moved_only and self._echoed.get(sender) == last[0]:
                continue
            heads.append((sender[:HEAD_PREFIX], last[0], last[1]))
            self._echoed[sender] = last[0]
            if len(heads) == MAX_HEADS:
                break
        return tuple(heads)

    def echo_due(self) -> bool:
        """Whether a followed stream moved on since we last echoed it (a STATUS would
        tell the others something new)."""
        for sender, inbox in self._inboxes.items():
            last = inbox.positions.last()
            if last is not None and not self._stranger(sender) and (
                    self._echoed.get(sender) != last[0]):
                return True
        return False

    def faults(self) -> list[StreamFault]:
        """What the chains showed since the last call (:mod:`.chain`); handed over."""
        found, self._faults = self._faults, []
        return found

    def collect(self, inbox: Inbox) -> None:
        """Take the faults ``inbox`` found (at most :data:`MAX_FAULTS` kept)."""
        self.faults_seen += len(inbox.found)
        room = max(0, MAX_FAULTS - len(self._faults))
        self._faults.extend(inbox.found[:room])
        inbox.found.clear()

    def _owner(self, prefix: str) -> str | None:
        """The one followed sender whose name starts ``prefix`` (None: none, or two)."""
        if self._owners is None:
            owners: dict[str, str | None] = {}
            for sender in self._inboxes:
                key = sender[:HEAD_PREFIX]
                owners[key] = None if key in owners else sender
            self._owners = owners
        return self._owners.get(prefix)

    def check_heads(self, echoer: str, heads: tuple[Head, ...], evidence: bytes,
                    now: float) -> None:
        """Compare what ``echoer`` says it reached with what we hold (:mod:`.chain`); a
        position we lack is asked for at once."""
        for prefix, seq, echoed in heads:
            if prefix == self.me[:HEAD_PREFIX]:
                mine = self._outbox.positions.get(seq)
                if mine is not None and mine[0] != echoed:
                    self._faults_of_split(echoer, self.me, seq, evidence, mine[1])
                elif epoch_of(seq) == self.epoch and seq <= self._outbox.high_water:
                    self.reached[echoer] = max(self.reached.get(echoer, 0), seq)
                continue
            sender = self._owner(prefix)
            inbox = None if sender in (None, echoer) else self._inboxes.get(sender or "")
            if inbox is None:
                continue
            kept = inbox.positions.get(seq)
            if kept is not None:
                if kept[0] != echoed:
                    self._faults_of_split(echoer, inbox.sender, seq, evidence, kept[1])
            elif (seq >= inbox.next_seq and epoch_of(seq) == inbox.epoch
                  and seq < inbox.next_seq + self._max_ahead and seq > inbox.echoed):
                inbox.note_high_water(seq)
                inbox.echoed, inbox.echo = seq, (echoer, evidence)
                self._ask_if_due(inbox, now)
                if inbox.found:
                    self.collect(inbox)

    def _faults_of_split(self, echoer: str, sender: str, seq: int, echo: bytes,
                         held: bytes) -> None:
        inbox = self._inboxes.get(echoer)
        if inbox is None:
            return
        inbox.report(StreamFault("split", sender, seq, f"{echoer[:8]} holds another frame "
                                 f"#{seq} of {sender[:8]} than this seat", (echo, held),
                                 by=echoer))

    def withheld(self, inbox: Inbox) -> None:
        """One more ask for a position another seat has echoed: past
        :data:`~lodam_p2p.transport.chain.WITHHELD_ASKS` of them, it is withheld."""
        inbox.withheld_asks += 1
        if inbox.withheld_asks != WITHHELD_ASKS:
            return
        echoer, echo = inbox.echo
        inbox.report(StreamFault("withheld", inbox.sender, inbox.next_seq,
                                 f"{echoer[:8]} has reached #{inbox.echoed}; asked "
                                 f"{WITHHELD_ASKS} times, never received", (echo,),
                                 by=echoer))
        self.collect(inbox)
