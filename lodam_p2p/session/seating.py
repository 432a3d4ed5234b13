"""Before the first hand: the lobby as a seat follows it, and the lot for the first dealer.

:class:`SeatingDesk` is a part the table machine
(:class:`~lodam_p2p.session.seat.TableMachine`) owns and calls (its ``seating``),
reaching it only through :class:`SeatingTable`. At the host's watcher the desk
(:class:`~lodam_p2p.session.lobby.HostDesk`) seats the JOINs it hears, publishes the
seat list and, once the table is full, START — and keeps the retained lobby
announcement up to date. Every peer takes SEATS (the player is told where
it sits, and under which name) and START (the roster, the journal, the lot). The lot's
own messages go to :class:`~lodam_p2p.session.lot.Lot`; a reveal that does not match its
commitment ends the match before it begins. Pure: retained writes go into ``retained``,
the seated table into an :class:`~lodam_p2p.session.effects.Admit` event.

A joining seat is seated only when its host says so: a SEATS listing it, or START.
Until then it is *asking*: its player is told so, and it asks again (JOIN) every
:data:`ASK_AGAIN_S` seconds without an answer, saying why it waits — no answer from the
host yet, or the table is full. A JOIN the host already took changes nothing there. A
table that starts without it ends its session with that reason. Nothing is shown as a
seat list but the host's own, so every screen at the table shows the same one.

Announcements are signed (:mod:`lodam_p2p.transport.lobby`): the link drops one whose
signature does not check, and this seat one whose ``host`` is not its key's peer name.
A seat pinned to a fingerprint (``join oak#7f3a``, or the announcer its command found:
:attr:`SeatingDesk.pin`) hears only that announcer. Otherwise the first announcer of the
name it hears is its host. Another announcer of the same name (a stranger, or a host
that played again under a new key) is another table: the player is told so, and the
seat stays with its host. SEATS and START count only from that host (the frame layer
checks that they are signed by its key). A seated peer that signs an announcement of
this table once the match began, or a START, not being its host, is blamed on it (the
signed announcement, or the START from its signed stream, is the evidence).
"""

from __future__ import annotations

from typing import Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.player import (
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    SeatInfo,
    SeatsChanged,
    TableEvent,
)
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import HostDesk, Roster, renamed_notice
from lodam_p2p.session.log import seated_line
from lodam_p2p.session.lot import Lot, LotError
from lodam_p2p.session.phases import SessionPhase
from lodam_p2p.session.verdict import FALSE_HOST
from lodam_p2p.session.wire import Body, Msg, peer_name
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.lobby import TableAnnouncement

#: Seconds a joining seat waits for its host's answer before it asks again.
ASK_AGAIN_S = 5.0


class SeatingTable(Protocol):
    """What the lobby and the lot read and call on the table machine that owns them."""

    table: str
    me: str
    plan: SeatPlan | None
    host: str | None
    desk: HostDesk | None
    identity: Ed25519PrivateKey
    entropy: Entropy
    journal: SeatJournal
    roster: Roster | None
    seat: int | None
    lot: Lot | None
    phase: SessionPhase
    lot_since: float
    match_started_at: float
    blames: list[str]
    retained: list[tuple[str, bytes]]
    pubkeys: dict[str, bytes]

    def now(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...
    def ignore(self, peer: str, reason: str) -> None: ...
    def finish(self, *, early: bool) -> None: ...
    def begin_match(self, dealer: int) -> None: ...
    def journal_start(self, body: Body, host: str | None) -> None: ...
    def tell_seats(self) -> None: ...
    def admit(self, roster: Roster) -> None: ...


class SeatingDesk:
    """The lobby and the lot at one peer (see the module docstring)."""

    def __init__(self, table: SeatingTable) -> None:
        self.table = table
        self.renamed: Notice | None = None
        #: when this seat last asked its host for a seat (None: not asking)
        self.asked_at: float | None = None
        #: the host's last seat list holds this seat
        self.listed = False
        #: the table's last announcement said it is full
        self.full_seen = False
        #: the fingerprint prefix of the host this seat joins (None: the first heard)
        self.pin: str | None = None
        #: the announcers of this table's name heard so far, by peer
        self.announcers: dict[str, TableAnnouncement] = {}
        #: the retained topic of the host's announcement, once heard
        self.host_topic: str | None = None
        #: the pin was given by the seat's person (``oak#7f3a``), not chosen for it
        self.pin_given = False
        #: peers blamed already for announcing this table (blamed once each)
        self.false_hosts: set[str] = set()
        #: other announcers of the name the player was told of
        self.others: set[str] = set()
        #: the first START each peer other than the host sent (see :meth:`stray_roster`)
        self.stray_starts: dict[str, Body] = {}

    def announce(self) -> None:
        """Publish the desk's announcement (retained), signed by this host's key."""
        t = self.table
        assert t.desk is not None
        announcement = t.desk.announcement().signed(t.identity)
        t.retained.append((announcement.topic, announcement.encode()))

    # --- the lobby ----------------------------------------------------------------------

    def take_join(self, peer: str, body: Body) -> None:
        """A JOIN: the host's desk seats the peer if it can."""
        t = self.table
        name, kind = body.args
        if t.desk is not None and t.desk.join(peer, t.pubkeys.get(peer, b""), name, kind):
            self.desk_changed()

    def left_lobby(self, peer: str) -> None:
        """A LEAVE (or a Last Will) before the start frees the peer's seat."""
        t = self.table
        if t.desk is not None and t.desk.leave(peer):
            self.desk_changed()

    def desk_changed(self) -> None:
        """The seat list changed: announce it, and START once the table is full."""
        t = self.table
        assert t.desk is not None
        self.announce()
        if t.desk.full and not t.desk.started:
            t.send(t.desk.start_body(t.entropy(16)))
            self.announce()
        else:
            t.send(t.desk.seats_body())

    def ask_for_seat(self, why: str = "") -> None:
        """JOIN the table (again): a seat is the host's to give (see the module
        docstring); tell the player this seat is asking, and ``why`` it asks again."""
        t = self.table
        if t.plan is None:
            return
        t.send(Body(Msg.JOIN, args=(t.plan.name, t.plan.kind)))
        self.asked_at = t.now()
        ask = f"asking the host of table {t.table} for a seat"
        t.tell(Progress(Phase.LOBBY, detail=f"{why}: {ask}" if why else ask))

    def lobby_seen(self, announcement: TableAnnouncement | None) -> None:
        """An announcement of this table's name (see the module docstring): the host to
        ask. One from another announcer is another table of that name: the player is
        told, and this seat stays with its host."""
        t = self.table
        if announcement is None:
            return
        if peer_name(announcement.key) != announcement.host:
            t.ignore(announcement.host, "an announcement whose host is not its key's peer")
            return
        self._false_host(announcement)
        if not announcement.pinned_by(self.pin):
            self._another_table(announcement)
            return
        self.announcers[announcement.host] = announcement
        if t.host is None:
            t.host = announcement.host
        if announcement.host != t.host:
            self._another_table(announcement)
            return
        self.host_topic = announcement.topic
        if (t.desk is not None or t.plan is None or t.roster is not None
                or t.phase is not SessionPhase.LOBBY or t.journal.rejoining):
            return
        # "full" also when this seat took the last one: said only if no answer follows
        self.full_seen = announcement.state == "full"

    def _another_table(self, announcement: TableAnnouncement) -> None:
        """Tell the player, once, that a second announcer of this name is another table
        (a seat its person pinned, ``oak#7f3a``, knows already)."""
        t = self.table
        if (self.pin_given or t.desk is not None or t.plan is None
                or announcement.host in self.others or t.host is None):
            return
        self.others.add(announcement.host)
        known = self.announcers.get(t.host)
        mine = known.label if known is not None else f"{t.table} (host {t.host})"
        t.tell(Notice(NoticeLevel.WARNING, f"Two tables are announced as {t.table}: "
                      f"{mine} and {announcement.label}. This seat asks {mine}, the first "
                      f"it heard (join {announcement.label} to sit at the other)."))

    def stray_roster(self, peer: str, body: Body) -> None:
        """SEATS or START from a peer other than this seat's host: dropped. A START is
        kept until the roster is known, then blamed on its signer if that peer is seated
        (the START, which came signed on the peer's own stream, is the evidence): every
        seat hears every stream whole, so every seat blames it alike."""
        t = self.table
        if body.kind is not Msg.START or peer == t.host:
            return
        self.stray_starts.setdefault(peer, body)
        self._blame_stray_starts()

    def _blame_stray_starts(self) -> None:
        t = self.table
        if t.roster is None:
            return
        for peer, body in sorted(self.stray_starts.items()):
            seat = t.roster.seat_of(peer)
            if seat is None or peer in self.false_hosts:
                continue
            self.false_hosts.add(peer)
            t.blames.append(f"seat {seat}: {FALSE_HOST}: signed a START for table "
                            f"{t.table}, which it does not host: "
                            f"{body.encode().hex()[:160]}")

    def _false_host(self, announcement: TableAnnouncement) -> None:
        """A seated peer other than the host announcing this table is blamed, once, on its
        signed announcement."""
        t = self.table
        if t.roster is None or announcement.host in (t.host, *self.false_hosts):
            return
        seat = t.roster.seat_of(announcement.host)
        if seat is None:
            return
        self.false_hosts.add(announcement.host)
        t.blames.append(f"seat {seat}: announced table {t.table}, which it does not "
                        f"host: its signed announcement {announcement.encode().decode()}")

    def asking_due(self) -> float | None:
        """When this seat asks again, if it is still asking."""
        t = self.table
        if self.asked_at is None or self.listed or t.phase is not SessionPhase.LOBBY:
            return None
        return self.asked_at + ASK_AGAIN_S

    def ask_seat_again(self, now: float) -> None:
        """Ask again for a seat the host has not given yet, when it is time."""
        ask = self.asking_due()
        if ask is not None and now >= ask:
            self.ask_for_seat("the table is full, waiting for a seat to free" if self.full_seen
                              else "no answer from the host yet")

    def take_seats(self, body: Body) -> None:
        """The host's seat list: tell the player where it sits (and its name here), or
        why it is not seated yet."""
        t = self.table
        rows, wanted = body.args
        seats = tuple(SeatInfo(i, name, kind) for i, (_p, name, kind) in enumerate(rows))
        mine = [i for i, row in enumerate(rows) if row[0] == t.me]
        if t.plan is None:
            return
        if not mine:
            if self.listed:  # the host let the seat go (it heard this seat leave)
                self.listed = False
                self.ask_for_seat("the host let this seat go")
            elif len(rows) >= wanted:
                t.tell(Progress(Phase.LOBBY, detail=f"the table is full ({len(rows)} of "
                                f"{wanted} seats taken): waiting for a seat to free"))
            return
        if not self.listed:
            self.listed, self.asked_at = True, None
            t.tell(Progress(Phase.LOBBY, detail=f"waiting for table {t.table} to fill"))
        t.tell(SeatsChanged(seats, mine[0], wanted))
        renamed = renamed_notice(t.plan.name, seats[mine[0]].name)
        if renamed is not None and self.renamed != renamed:
            self.renamed = renamed
            t.tell(renamed)

    def take_start(self, body: Body) -> None:
        """START: the roster, the journal, and this seat's lot commitment."""
        t = self.table
        try:
            roster = Roster.from_start(body)
        except ValueError as err:
            t.ignore(t.host or "?", f"bad START: {err}")
            return
        seat = roster.seat_of(t.me)
        if t.plan is not None and seat is None:
            raise SessionError(f"table {t.table} is full: its match started without "
                               "this seat")
        t.roster, t.seat = roster, seat
        self._blame_stray_starts()
        t.journal_start(body, t.host)
        t.admit(roster)
        t.lot = Lot(roster.table_id, len(roster.sitters), seat, t.entropy)
        t.phase, t.lot_since = SessionPhase.LOT, t.now()
        t.match_started_at = t.lot_since
        t.spectate(seated_line(roster))
        t.tell_seats()
        t.tell(Progress(Phase.DRAWING, detail="drawing the first dealer by lot"))
        if seat is not None:
            t.send(Body(Msg.LOT_COMMIT, args=(t.lot.my_commitment(),)))

    # --- the lot ------------------------------------------------------------------------

    def take_lot(self, seat: int, body: Body) -> None:
        """A lot commitment or reveal from ``seat``; a false reveal ends the match."""
        t = self.table
        assert t.lot is not None
        if body.kind is Msg.LOT_COMMIT:
            t.lot.take_commit(seat, body.args[0])
            return
        try:
            t.lot.take_reveal(seat, body.args[0])
        except LotError as err:
            t.blames.append(f"seat {err.seat}: lot: {err.reason}")
            t.finish(early=True)

    def lot_moves(self) -> None:
        """Reveal this seat's nonce once every commitment is in; begin the match once the
        lot names the first dealer."""
        t = self.table
        if t.phase is not SessionPhase.LOT or t.lot is None:
            return
        if t.lot.may_reveal():
            t.lot.revealed = True
            t.send(Body(Msg.LOT_REVEAL, args=(t.lot.nonce,)))
        dealer = t.lot.dealer()
        if dealer is not None:
            t.begin_match(dealer)
