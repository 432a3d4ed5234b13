"""Before the first hand: the lobby as a seat follows it, and the lot for the first dealer.

A part of the table machine (:class:`~lodam_p2p.session.seat.TableMachine`). At the
host's watcher the desk (:class:`~lodam_p2p.session.lobby.HostDesk`) seats the JOINs it
hears, publishes the seat list and, once the table is full, START — and keeps the
retained lobby announcement up to date. Every peer takes SEATS (the player is told where
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
:attr:`Seating.pin`) hears only that announcer. Otherwise the first announcer of the
name it hears is its host. Another announcer of the same name (a stranger, or a host
that played again under a new key) is another table: the player is told so, and the
seat stays with its host. SEATS and START count only from that host (the frame layer
checks that they are signed by its key). A seated peer that signs an announcement of
this table once the match began, or a START, not being its host, is blamed on it (the
signed announcement, or the START from its signed stream, is the evidence).
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress, SeatInfo, SeatsChanged
from lodam_p2p.session.clocks import SessionPhase
from lodam_p2p.session.course import FALSE_HOST
from lodam_p2p.session.effects import Admit, SessionError
from lodam_p2p.session.lobby import HostDesk, Roster, renamed_notice
from lodam_p2p.session.log import seated_line
from lodam_p2p.session.lot import Lot, LotError
from lodam_p2p.session.rejoin import Rejoining
from lodam_p2p.session.wire import Body, Msg, peer_name
from lodam_p2p.transport.lobby import TableAnnouncement

#: Seconds a joining seat waits for its host's answer before it asks again.
ASK_AGAIN_S = 5.0


class Seating(Rejoining):
    """The lobby and the lot at one peer (see the module docstring)."""

    def __init__(self, *args: Any, desk: HostDesk | None, host: str | None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.host, self.desk = host, desk
        self.pubkeys: dict[str, bytes] = {}
        #: retained lobby writes (topic, payload) the runner publishes, in order
        self.retained: list[tuple[str, bytes]] = []
        self._renamed: Notice | None = None
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
        self._false_hosts: set[str] = set()
        #: other announcers of the name the player was told of
        self._others: set[str] = set()
        #: the first START each peer other than the host sent (see :meth:`stray_roster`)
        self._stray_starts: dict[str, Body] = {}

    def announce(self) -> None:
        """Publish the desk's announcement (retained), signed by this host's key."""
        assert self.desk is not None
        announcement = self.desk.announcement().signed(self.identity)
        self.retained.append((announcement.topic, announcement.encode()))

    def withdraw(self) -> None:
        """The host's table is over: take the announcement down."""
        if self.desk is not None:
            self.retained.append((self.desk.announcement().signed(self.identity).topic, b""))

    def admit(self, roster: Roster) -> None:
        """Take frames only from the seated table (and its host) from now on."""
        self.events.append(Admit(roster.peers | {self.host or self.me}))

    # --- the lobby ----------------------------------------------------------------------

    def take_join(self, peer: str, body: Body) -> None:
        """A JOIN: the host's desk seats the peer if it can."""
        name, kind = body.args
        if self.desk is not None and self.desk.join(peer, self.pubkeys.get(peer, b""), name, kind):
            self.desk_changed()

    def left_lobby(self, peer: str) -> None:
        """A LEAVE (or a Last Will) before the start frees the peer's seat."""
        if self.desk is not None and self.desk.leave(peer):
            self.desk_changed()

    def desk_changed(self) -> None:
        """The seat list changed: announce it, and START once the table is full."""
        assert self.desk is not None
        self.announce()
        if self.desk.full and not self.desk.started:
            self.send(self.desk.start_body(self.entropy(16)))
            self.announce()
        else:
            self.send(self.desk.seats_body())

    def ask_for_seat(self, why: str = "") -> None:
        """JOIN the table (again): a seat is the host's to give (see the module
        docstring); tell the player this seat is asking, and ``why`` it asks again."""
        if self.plan is None:
            return
        self.send(Body(Msg.JOIN, args=(self.plan.name, self.plan.kind)))
        self.asked_at = self.now()
        ask = f"asking the host of table {self.table} for a seat"
        self.tell(Progress(Phase.LOBBY, detail=f"{why}: {ask}" if why else ask))

    def lobby_seen(self, announcement: TableAnnouncement | None) -> None:
        """An announcement of this table's name (see the module docstring): the host to
        ask. One from another announcer is another table of that name: the player is
        told, and this seat stays with its host."""
        if announcement is None:
            return
        if peer_name(announcement.key) != announcement.host:
            self.ignore(announcement.host, "an announcement whose host is not its key's peer")
            return
        self._false_host(announcement)
        if not announcement.pinned_by(self.pin):
            self._another_table(announcement)
            return
        self.announcers[announcement.host] = announcement
        if self.host is None:
            self.host = announcement.host
        if announcement.host != self.host:
            self._another_table(announcement)
            return
        self.host_topic = announcement.topic
        if (self.desk is not None or self.plan is None or self.roster is not None
                or self.phase is not SessionPhase.LOBBY or self.journal.rejoining):
            return
        # "full" also when this seat took the last one: said only if no answer follows
        self.full_seen = announcement.state == "full"

    def _another_table(self, announcement: TableAnnouncement) -> None:
        """Tell the player, once, that a second announcer of this name is another table
        (a seat its person pinned, ``oak#7f3a``, knows already)."""
        if (self.pin_given or self.desk is not None or self.plan is None
                or announcement.host in self._others or self.host is None):
            return
        self._others.add(announcement.host)
        known = self.announcers.get(self.host)
        mine = known.label if known is not None else f"{self.table} (host {self.host})"
        self.tell(Notice(NoticeLevel.WARNING, f"Two tables are announced as {self.table}: "
                         f"{mine} and {announcement.label}. This seat asks {mine}, the first "
                         f"it heard (join {announcement.label} to sit at the other)."))

    def stray_roster(self, peer: str, body: Body) -> None:
        """SEATS or START from a peer other than this seat's host: dropped. A START is
        kept until the roster is known, then blamed on its signer if that peer is seated
        (the START, which came signed on the peer's own stream, is the evidence): every
        seat hears every stream whole, so every seat blames it alike."""
        if body.kind is not Msg.START or peer == self.host:
            return
        self._stray_starts.setdefault(peer, body)
        self._blame_stray_starts()

    def _blame_stray_starts(self) -> None:
        if self.roster is None:
            return
        for peer, body in sorted(self._stray_starts.items()):
            seat = self.roster.seat_of(peer)
            if seat is None or peer in self._false_hosts:
                continue
            self._false_hosts.add(peer)
            self.blames.append(f"seat {seat}: {FALSE_HOST}: signed a START for table "
                               f"{self.table}, which it does not host: "
                               f"{body.encode().hex()[:160]}")

    def _false_host(self, announcement: TableAnnouncement) -> None:
        """A seated peer other than the host announcing this table is blamed, once, on its
        signed announcement."""
        if self.roster is None or announcement.host in (self.host, *self._false_hosts):
            return
        seat = self.roster.seat_of(announcement.host)
        if seat is None:
            return
        self._false_hosts.add(announcement.host)
        self.blames.append(f"seat {seat}: announced table {self.table}, which it does not "
                           f"host: its signed announcement {announcement.encode().decode()}")

    def asking_due(self) -> float | None:
        """When this seat asks again, if it is still asking."""
        if self.asked_at is None or self.listed or self.phase is not SessionPhase.LOBBY:
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
        rows, wanted = body.args
        seats = tuple(SeatInfo(i, name, kind) for i, (_p, name, kind) in enumerate(rows))
        mine = [i for i, row in enumerate(rows) if row[0] == self.me]
        if self.plan is None:
            return
        if not mine:
            if self.listed:  # the host let the seat go (it heard this seat leave)
                self.listed = False
                self.ask_for_seat("the host let this seat go")
            elif len(rows) >= wanted:
                self.tell(Progress(Phase.LOBBY, detail=f"the table is full ({len(rows)} of "
                                   f"{wanted} seats taken): waiting for a seat to free"))
            return
        if not self.listed:
            self.listed, self.asked_at = True, None
            self.tell(Progress(Phase.LOBBY, detail=f"waiting for table {self.table} to fill"))
        self.tell(SeatsChanged(seats, mine[0], wanted))
        renamed = renamed_notice(self.plan.name, seats[mine[0]].name)
        if renamed is not None and self._renamed != renamed:
            self._renamed = renamed
            self.tell(renamed)

    def take_start(self, body: Body) -> None:
        """START: the roster, the journal, and this seat's lot commitment."""
        try:
            roster = Roster.from_start(body)
        except ValueError as err:
            self.ignore(self.host or "?", f"bad START: {err}")
            return
        seat = roster.seat_of(self.me)
        if self.plan is not None and seat is None:
            raise SessionError(f"table {self.table} is full: its match started without "
                               "this seat")
        self.roster, self.seat = roster, seat
        self._blame_stray_starts()
        self.journal_start(body, self.host)
        self.admit(roster)
        self.lot = Lot(roster.table_id, len(roster.sitters), seat, self.entropy)
        self.phase, self.lot_since = SessionPhase.LOT, self.now()
        self.match_started_at = self.lot_since
        self.spectate(seated_line(roster))
        self.tell_seats()
        self.tell(Progress(Phase.DRAWING, detail="drawing the first dealer by lot"))
        if seat is not None:
            self.send(Body(Msg.LOT_COMMIT, args=(self.lot.my_commitment(),)))

    # --- the lot ------------------------------------------------------------------------

    def take_lot(self, seat: int, body: Body) -> None:
        """A lot commitment or reveal from ``seat``; a false reveal ends the match."""
        assert self.lot is not None
        if body.kind is Msg.LOT_COMMIT:
            self.lot.take_commit(seat, body.args[0])
            return
        try:
            self.lot.take_reveal(seat, body.args[0])
        except LotError as err:
            self.blames.append(f"seat {err.seat}: lot: {err.reason}")
            self.finish(early=True)

    def lot_moves(self) -> None:
        """Reveal this seat's nonce once every commitment is in; begin the match once the
        lot names the first dealer."""
        if self.phase is not SessionPhase.LOT or self.lot is None:
            return
        if self.lot.may_reveal():
            self.lot.revealed = True
            self.send(Body(Msg.LOT_REVEAL, args=(self.lot.nonce,)))
        dealer = self.lot.dealer()
        if dealer is not None:
            self.begin_match(dealer)
