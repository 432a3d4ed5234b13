"""The lobby: who sits where before the match, kept by the table's host.

The host of a table publishes the retained announcement (``lodam/v3/lobby/<table>``)
and admits peers: a peer publishes JOIN (its name and kind) on its own topic, the host
answers with the seat list (SEATS: who sits where, and how many seats the table has) on
its own — names made unique at the table ("Ann", "Ann (2)") — and once every seat is
filled it publishes START: a fresh random table id for the fair-deal contexts, the rules
options (with the game under the key ``game`` when it is not Lodam), the roster — every
seat's peer, public key, name and kind, in seat order — and the table's time limit: how
long any seat may take for any step or decision, the same for every seat whatever its
kind (it is also in the announcement, as ``time_limit_s``). A seated peer may LEAVE (or
vanish: its Last Will) before the start and its seat is free again.

Seats can be *reserved* for given peers (the host's own local seats, in the order they
were given); other peers fill the remaining seats in the order their JOINs arrive.

The host decides seating only; it sees no card and cannot bias the first dealer (the
lot, :mod:`.lot`) nor the deal (the fair-deal protocol). :class:`HostDesk` is pure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game, GameError, get_game
from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.session.wire import Body, Msg, peer_name
from lodam_p2p.transport.lobby import TableAnnouncement


@dataclass(frozen=True, slots=True)
class Sitter:
    """A peer at a seat: its topic name, public key, shown name and kind."""

    peer: str
    pubkey: bytes
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class Roster:
    """The seats of a started match, in seat order."""

    table_id: bytes
    options: Any  #: the game's options value
    sitters: tuple[Sitter, ...]
    limit_s: float = 30.0  #: the table's time limit per step or decision, for every seat
    game: Game = field(default_factory=lambda: get_game(DEFAULT_GAME))

    def seat_of(self, peer: str) -> int | None:
        """The seat of ``peer``, or None if it does not sit here."""
        for seat, sitter in enumerate(self.sitters):
            if sitter.peer == peer:
                return seat
        return None

    @property
    def peers(self) -> frozenset[str]:
        """Every seated peer."""
        return frozenset(s.peer for s in self.sitters)

    @classmethod
    def from_start(cls, body: Body) -> Roster:
        """The roster a START message announces; ``ValueError`` if it is not sound."""
        table_id, options, rows, limit = body.args
        sitters = tuple(Sitter(peer, key, name, kind) for peer, key, name, kind in rows)
        mapping = dict(options)
        name = mapping.pop("game", DEFAULT_GAME)
        if not isinstance(name, str):
            raise ValueError(f"a START naming the game {name!r}")
        game = get_game(name)  # GameError is a ValueError
        if len(sitters) not in game.seats:
            raise ValueError(f"a START of {game.title} with {len(sitters)} seats")
        if any(peer_name(s.pubkey) != s.peer for s in sitters):
            raise ValueError("a START pairs a peer with a key that is not its own")
        if len({s.peer for s in sitters}) != len(sitters):
            raise ValueError("a START seats one peer twice")
        chosen = game.options_from_mapping(mapping)
        check_playable(game, chosen)
        return cls(table_id, chosen, sitters, float(limit), game)


#: Options a networked table does not deal yet, per game: the session refuses them
#: (none now: Lorum's short First-and-last carries its encrypted deck, see .gamehand).
UNSUPPORTED: dict[str, tuple[str, ...]] = {}


def check_playable(game: Game, options: Any) -> None:
    """``GameError`` when ``options`` name a variant the networked table cannot deal
    fairly yet (it would have to keep cards secret from their owners, or carry an
    encrypted deck over to the next deal)."""
    mapping = game.options_to_mapping(options)
    for name in UNSUPPORTED.get(game.name, ()):
        if mapping.get(name):
            raise GameError(f"{game.title} with {name} is not played at a networked table "
                            "yet (only offline: lodam play --offline)")


def renamed_notice(asked: str, given: str) -> Notice | None:
    """What a peer is told when the host seated it under another name (None: same)."""
    if asked == given:
        return None
    return Notice(NoticeLevel.INFO, f"Someone at this table is already called {asked}: "
                                    f"here you are {given}.")


class HostDesk:
    """The host's seat list (see the module docstring)."""

    def __init__(self, table: str, host: str, seats: int, options: Any,
                 reserved: tuple[str, ...] = (), *, limit_s: float = 30.0,
                 game: Game | None = None, brokers: tuple[str, ...] = ()) -> None:
        self.table, self.host, self.seats, self.options = table, host, seats, options
        self.brokers = brokers  #: where other machines reach the broker, for the lobby
        self.game = game or get_game(DEFAULT_GAME)
        self.limit_s = limit_s
        self.reserved = reserved
        self.seated: dict[str, Sitter] = {}
        self.started = False

    def join(self, peer: str, pubkey: bytes, name: str, kind: str) -> bool:
        """Seat ``peer`` if a seat is free for it; True if the seat list changed."""
        if self.started or peer in self.seated:
            return False
        free = self.seats - len(self.reserved) - len(self._guests())
        if peer not in self.reserved and free <= 0:
            return False
        self.seated[peer] = Sitter(peer, pubkey, self._unique(name), kind)
        return True

    def resume(self, roster: Roster) -> None:
        """The desk of a started match, rebuilt from its roster (a restarted host)."""
        self.seated = {s.peer: s for s in roster.sitters}
        self.reserved, self.started = (), True

    def leave(self, peer: str) -> bool:
        """Free ``peer``'s seat (before the start); True if the seat list changed."""
        if self.started:
            return False
        return self.seated.pop(peer, None) is not None

    @property
    def full(self) -> bool:
        """Every seat is taken."""
        return len(self.seated) == self.seats

    @property
    def no_guest_seat(self) -> bool:
        """No seat is left for a peer that joins (the rest are reserved): the table is
        full to others, and its announcement says so."""
        return self.seats - len(self.reserved) - len(self._guests()) <= 0

    def order(self) -> list[Sitter]:
        """Seated peers in seat order: reserved seats first, then guests by arrival."""
        first = [self.seated[p] for p in self.reserved if p in self.seated]
        return first + self._guests()

    def _guests(self) -> list[Sitter]:
        return [s for p, s in self.seated.items() if p not in self.reserved]

    def _unique(self, name: str) -> str:
        taken = {s.name.casefold() for s in self.seated.values()}
        candidate, n = name, 2
        while candidate.casefold() in taken:
            candidate, n = f"{name[:36]} ({n})", n + 1
        return candidate

    def seats_body(self) -> Body:
        """The SEATS message for the current list."""
        rows = [[s.peer, s.name, s.kind] for s in self.order()]
        return Body(Msg.SEATS, args=(rows, self.seats))

    def start_body(self, table_id: bytes) -> Body:
        """The START message (call once, when full)."""
        self.started = True
        rows = [[s.peer, s.pubkey, s.name, s.kind] for s in self.order()]
        return Body(Msg.START, args=(table_id, self._options_mapping(), rows, self.limit_s))

    def _options_mapping(self) -> dict[str, object]:
        mapping = self.game.options_to_mapping(self.options)
        if self.game.name != DEFAULT_GAME:
            mapping["game"] = self.game.name
        return mapping

    def announcement(self, state: str | None = None) -> TableAnnouncement:
        """The retained lobby announcement for the current state."""
        if state is None:
            state = "playing" if self.started else "full" if self.no_guest_seat else "open"
        shown = {**self.game.options_to_mapping(self.options), "time_limit_s": self.limit_s}
        options = tuple(sorted((k, _shown(v)) for k, v in shown.items()))
        return TableAnnouncement(self.table, self.host, self.seats,
                                 tuple(s.name for s in self.order()), options, state,
                                 game=self.game.name, brokers=self.brokers)


def _shown(value: object) -> str:
    """An option's value as the lobby shows it (a list as ``a,b,c``, as typed)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return json.dumps(value)
