"""The sessions a process brings to a table it hosts, and what its journal gives back.

:func:`table_sessions` makes the host (a watcher that keeps the lobby and writes the
spectator log) and one :class:`~lodam_p2p.session.runner.Session` per seat played
here, each with its own identity, keys and link; :func:`kept_entries` reads the journal
they keep, which puts a restarted ``lodam host`` back at its unfinished match in a new
stream epoch. :func:`seat_link` is a seat's link at the table's timing, the host's and
a joining seat's alike. Nothing here awaits: the table drivers (:mod:`.table`) run what
is made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games import Game
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.journal import Journal, SeatJournal
from lodam_p2p.session.keys import entropy_for
from lodam_p2p.session.link import Connector, Link
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.runner import Session
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.lobby import fingerprint

__all__ = ["kept_entries", "seat_link", "table_sessions"]


def seat_link(connect: Connector, table: str, identity: Ed25519PrivateKey, timing: Timing, *,
              watch_lobby: bool = False, epoch: int = 0) -> Link:
    """The link of one peer at ``table`` (``identity``, in stream ``epoch``), with the
    heartbeat and retry of ``timing``; ``watch_lobby`` for a seat that joins."""
    return Link(connect, table, identity, watch_lobby=watch_lobby,
                heartbeat=timing.heartbeat_s, retry=timing.retry_s, epoch=epoch)


def table_sessions(table: str, options: Any, seats: int, local: Sequence[SeatPlan], *,
                   connect: Connector, seed: int | None, timing: Timing,
                   spectator: SpectatorLog | None, journal: Journal | None = None,
                   game: Game | None = None, brokers: tuple[str, ...] = (),
                   transcripts: Path | None = None) -> list[Session]:
    """The host (a watcher keeping the lobby) and one session per local seat.

    With a ``journal``, each session keeps its identity, the match and the result there.
    A journal holding this table's unfinished match puts them all back (a restarted
    ``lodam host``): the same identities in a new stream epoch; each seat asks to be
    taken back (:mod:`.rejoin`), naming the others as coming back with it, and the host
    follows the first seat in."""
    kept = kept_entries(journal, table, len(local))
    links, entropies = [], []
    for place, entry in enumerate(kept):
        epoch = int(entry.entry.get("epoch", -1)) + 1
        entropy = entropy_for(seed, place + 1000 * epoch)
        entropies.append(entropy)
        links.append(seat_link(connect, table, entry.identity(entropy), timing, epoch=epoch))
        entry.next_epoch()
    host_link, *seat_links = links
    together = tuple(link.peer for link in seat_links)  # a restarted host's seats come back
    # One limit for every seat: a person at the host's own seats gets time to think.
    person = any(plan.kind == "human" for plan in local)
    limit = max(timing.timeout_s, timing.person_s) if person else timing.timeout_s
    desk = HostDesk(table, host_link.peer, seats, options,
                    tuple(link.peer for link in seat_links), limit_s=limit, game=game,
                    brokers=brokers)
    host = Session(host_link, plan=None, entropy=entropies[0], timing=timing,
                   host=host_link.peer, desk=desk, spectator=spectator, journal=kept[0],
                   follow=seat_links[0].peer if seat_links else None, together=together)
    sessions = [host] + [
        Session(link, plan=plan, entropy=entropy, timing=timing, host=host_link.peer,
                journal=entry, together=together)
        for link, plan, entropy, entry in zip(seat_links, local, entropies[1:], kept[1:],
                                              strict=True)
    ]
    for session in sessions:
        session.runner.transcripts = transcripts
        session.runner.machine.seating.pin = fingerprint(host_link.pubkey)  # this host only
    return sessions


def kept_entries(journal: Journal | None, table: str, seats: int) -> list[SeatJournal]:
    """The journal entries of the host and its ``seats`` local seats: as they are when
    they hold this table's unfinished match (all of them, or :class:`SessionError`),
    else cleared for a new table."""
    roles = ["host"] + [f"seat-{i}" for i in range(1, seats + 1)]
    kept = [SeatJournal(journal, role, table) for role in roles]
    back = [entry.rejoining for entry in kept]
    if all(back):
        return kept
    if any(back):
        raise SessionError(f"the journal holds table {table}'s match under way, hosted with "
                           "other seats here: start it again with the same --bot seats")
    for entry in kept:
        entry.entry.clear()
        entry.entry["table"] = table
    return kept
