"""The public record of a hand, and the checks any observer can make on it.

This module does not know which seat, if any, is "us" (h11's rule): every seat and the
offline verifier run the same checks on the same public messages. Secrets live in
``hand.py``.

What is stored, per hand:
  keys      X_i per seat, and the joint key H = Σ X_i
  decks     decks[0] the starting deck, decks[i+1] the deck after the i-th shuffler
  shares    public decryption shares: position → seat → D_ij (deals and reveals)
  revealed  positions made public: position → card index
  made      every re-mask and transfer applied, in order (``rounds`` by seat and
            number); ``masked`` the ciphertext and ``holder`` the holder of each new
            position; ``retired`` the seats that re-masked a position; ``given`` the
            seat that handed a position over, and ``switched`` the new position it
            made of it

Held forms. Once the deal is in, a position dealt to seat s is encrypted, in effect,
under s's hand key alone: every other seat's share of it is public, and taking them
off leaves (A, B − Σ_{i≠s} D_i) = (A, M + x_s·A) (``held``). Re-masks and transfers
keep every card they make in that form, under its holder's key (remask.py,
transfer.py), so a held card is revealed by its holder's share alone, and nobody ever
publishes a share for a ciphertext another seat made: the deal's shares are of the
final deck, whose every shuffle was proven first.

Every shuffle and re-mask is checked by its proof of shuffle when it is added, with the
hand's shuffle argument (``arguments.py``; none at a table without proofs), every
transfer by its key-switch proof. An observer
that follows a live table (the host's watcher) answers nothing, so it may leave the
proofs of shuffle unchecked until a seat claims a cheat (``lazy``,
``check_unchecked``), and until it shows a card that rests on one (``settle``).

Positions below K are the final deck's; positions from K on are re-masks' and
transfers' (remask.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lodam_p2p.fairdeal.arguments import LEGACY, ShuffleArgument, get_argument
from lodam_p2p.fairdeal.config import HandConfig
from lodam_p2p.fairdeal.errors import blame
from lodam_p2p.fairdeal.group import (
    Point,
    add_all,
    card_lookup,
    encode_point,
    generator,
    neg,
)
from lodam_p2p.fairdeal.messages import (
    MAX_BODY,
    DealMsg,
    KeyMsg,
    RemaskMsg,
    RevealMsg,
    ShuffleMsg,
    TransferMsg,
    position_bytes,
)
from lodam_p2p.fairdeal.proofs import Context, Proof, verify_dleq, verify_key, verify_shares
from lodam_p2p.fairdeal.remask import (
    Handover,
    Made,
    Remask,
    first_position,
    owner_of,
    remask_statement,
)
from lodam_p2p.fairdeal.shuffle import Ciphertext, Deck, ShuffleSecret, starting_deck
from lodam_p2p.fairdeal.shuffleproof import Statement
from lodam_p2p.fairdeal.transfer import Switch, verify_switch

#: Fiat–Shamir tag of a single decryption share (reveals).
SHARE_TAG = b"share"


@dataclass(frozen=True, slots=True)
class Deferred:
    """A proof of shuffle a lazy observer took unchecked; ``run`` raises the blame an
    eager observer would have raised when it came. ``remask``: the (seat, round) of the
    re-mask it is about (None for a shuffle)."""

    run: Callable[[], None]
    remask: tuple[int, int] | None = None


@dataclass
class Record:
    """Everything public about one hand so far."""

    config: HandConfig
    keys: dict[int, Point] = field(default_factory=dict)
    joint: Point | None = None
    decks: list[Deck] = field(default_factory=list)
    commitments: dict[int, bytes] = field(default_factory=dict)
    dealt: set[int] = field(default_factory=set)
    shares: dict[int, dict[int, Point]] = field(default_factory=dict)
    revealed: dict[int, int] = field(default_factory=dict)
    made: list[Made] = field(default_factory=list)
    rounds: dict[tuple[int, int], Made] = field(default_factory=dict)
    masked: dict[int, Ciphertext] = field(default_factory=dict)
    holder: dict[int, int] = field(default_factory=dict)
    retired: dict[int, set[int]] = field(default_factory=dict)
    given: dict[int, int] = field(default_factory=dict)
    switched: dict[int, int] = field(default_factory=dict)
    #: an observer that answers nothing may take proofs of shuffle unchecked until a
    #: claim comes (``Hand(lazy=True)``); they wait here, in the order taken
    lazy: bool = False
    unchecked: list[Deferred] = field(default_factory=list)
    #: the audit's re-derived re-mask openings, by (seat, round): checked once, then
    #: followed to the cards they hold
    opened: dict[tuple[int, int], ShuffleSecret] = field(default_factory=dict)
    _held: dict[int, Ciphertext] = field(default_factory=dict)
    #: the hand's shuffle argument (resolved from ``config.argument``)
    argument: ShuffleArgument = field(init=False)

    def __post_init__(self) -> None:
        self.argument = get_argument(self.config.argument)
        k = self.config.deck_size
        if not k <= self.argument.max_size or shuffle_body(k, self.argument) > MAX_BODY:
            raise ValueError(f"a {k}-card shuffle proven with {self.argument.name!r} does not "
                             f"fit one message body of {MAX_BODY} bytes")

    def ctx(self, seat: int) -> Context:
        """The challenge context of ``seat`` in this hand."""
        return Context(self.config.table_id, self.config.hand, seat)

    @property
    def final_deck(self) -> Deck:
        """The deck after the last shuffle."""
        return self.decks[-1]

    def next_shuffler(self) -> int | None:
        """The seat whose shuffle is awaited (None once all have shuffled)."""
        done = len(self.decks) - 1
        return self.config.seats[done] if 0 <= done < len(self.config.seats) else None

    # --- keys -------------------------------------------------------------------------

    def add_key(self, seat: int, msg: KeyMsg, *, trusted: bool = False) -> None:
        """A seat's hand key; once all are in, the joint key and the starting deck. The
        key names the hand's shuffle argument (nothing for version 3's own)."""
        if msg.argument != self.argument_tag():
            named = msg.argument.decode("ascii", "replace") or "tw or none"
            raise blame(seat, "argument", f"its key names the shuffle argument {named!r}; "
                        f"the hand is played with {self.argument.name!r}")
        if not trusted and not verify_key(self.ctx(seat), msg.key, msg.proof):
            raise blame(seat, "key-proof", "the proof of knowledge of the hand key fails")
        self.keys[seat] = msg.key
        if len(self.keys) == len(self.config.seats):
            self._start_deck(seat)

    def argument_tag(self) -> bytes:
        """What a KEY of this hand names: the argument's name, or nothing for ``tw``
        and ``none``."""
        name = self.argument.name
        return b"" if name in LEGACY else name.encode("ascii")

    def _start_deck(self, last: int) -> None:
        try:
            self.joint = add_all([self.keys[s] for s in self.config.seats])
        except ValueError:  # H = infinity needs a key cancelling the others: rogue
            raise blame(last, "key", "the hand keys sum to nothing") from None
        self.decks = [starting_deck(self.joint, self.config.deck_size)]

    # --- shuffle ----------------------------------------------------------------------

    def add_shuffle(self, seat: int, msg: ShuffleMsg, *, trusted: bool = False) -> None:
        """The next shuffler's deck, checked by its proof of shuffle (the audit opening
        checks it again against the commitment)."""
        if len(msg.deck) != self.config.deck_size:
            raise blame(seat, "shuffle", f"deck of {len(msg.deck)} ciphertexts, "
                        f"expected {self.config.deck_size}")
        self.check_parts(seat, msg.deck, "shuffle", trusted=trusted)
        if not trusted:
            st = self.shuffle_statement(seat, msg.deck, msg.commitment)
            self._check_proof(seat, st, msg.proof, "shuffle")
        self.commitments[seat] = msg.commitment
        self.decks.append(msg.deck)

    def shuffle_statement(self, seat: int, new: Deck, committed: bytes) -> Statement:
        """What ``seat``'s proof of shuffle from the current deck to ``new`` must show
        (the commitment is part of it: a proof made for one commitment does not verify
        beside another)."""
        assert self.joint is not None
        return Statement(b"shuffle", self.ctx(seat), self.joint, self.final_deck, new,
                         committed)

    def check_parts(self, seat: int, deck: Deck, check: str, *, trusted: bool = False) -> None:
        """No ciphertext twice, and (from another seat) no part equal to G, a hand key or
        the joint key (the identity has no encoding). The proofs exclude them too; this
        is a cheap first line."""
        seen = {encode_point(a) + encode_point(b) for a, b in deck}
        if len(seen) != len(deck):
            raise blame(seat, check, "the same ciphertext twice")
        if trusted:
            return
        assert self.joint is not None
        banned = {encode_point(p) for p in (generator(), self.joint, *self.keys.values())}
        for a, b in deck:
            if encode_point(a) in banned or encode_point(b) in banned:
                raise blame(seat, check, "a ciphertext part is G or a public key")

    def _check_proof(self, seat: int, st: Statement, data: bytes,
                     check: str, remask: tuple[int, int] | None = None) -> None:
        if data and self.lazy and self.config.proofs:
            self.unchecked.append(Deferred(lambda: self._verify_proof(seat, st, data, check),
                                           remask))
            return
        self._verify_proof(seat, st, data, check)

    def _verify_proof(self, seat: int, st: Statement, data: bytes, check: str) -> None:
        argument = self.argument
        try:
            proof: Any = argument.decode(data, len(st.outputs))
        except ValueError as err:
            what = "missing" if not data else f"malformed ({err})"
            raise blame(seat, check, f"the proof of shuffle ({argument.name}) is "
                        f"{what}") from None
        if not argument.verify(st, proof):
            raise blame(seat, check, f"the proof of shuffle ({argument.name}) fails: the new "
                        "ciphertexts are not a re-encryption of the old ones")

    def check_unchecked(self) -> None:
        """Check every proof taken unchecked, in the order taken (the first that fails
        blames its sender), and every one from now on as it comes."""
        self.lazy = False
        pending, self.unchecked = self.unchecked, []
        for deferred in pending:
            deferred.run()

    def settle(self, position: int) -> None:
        """Before a lazy observer decrypts ``position``: check the proofs it took
        unchecked of every re-mask the position's ciphertext descends from (through
        earlier re-masks and transfers), so that the card it shows rests on none. The
        rest stays unchecked."""
        pending: set[tuple[int, int] | None] = {
            d.remask for d in self.unchecked if d.remask is not None}
        if not pending:
            return
        lineage = self._lineage(position, pending)
        mine = [d for d in self.unchecked if d.remask in lineage]
        if mine:
            self.unchecked = [d for d in self.unchecked if d.remask not in lineage]
            for deferred in mine:
                deferred.run()

    def _lineage(self, position: int,
                 pending: set[tuple[int, int] | None]) -> set[tuple[int, int] | None]:
        """The unchecked re-masks among ``position``'s ancestors. The walk stops at a
        re-mask already checked: its own ancestors were checked with it (a settle checks
        a whole lineage; a vigilant record checks everything as it comes)."""
        found: set[tuple[int, int] | None] = set()
        todo = [position]
        while todo:
            made = self.made_of(todo.pop())
            key = None if made is None else (made.seat, made.round)
            if isinstance(made, Remask) and key in pending and key not in found:
                found.add(key)
                todo.extend(made.inputs)
            elif isinstance(made, Handover):
                todo.append(made.position)
        return found

    # --- deal -------------------------------------------------------------------------

    def deal_entries(self, seat: int, shares: tuple[Point, ...]) -> list[tuple[int, Point, Point]]:
        """Pair ``seat``'s deal shares with their positions and A_j."""
        positions = self.config.shared_by(seat)
        if len(shares) != len(positions):
            raise blame(seat, "deal", f"{len(shares)} shares, expected {len(positions)}")
        deck = self.final_deck
        return [(j, deck[j][0], d) for j, d in zip(positions, shares, strict=True)]

    def add_deal(self, seat: int, msg: DealMsg, *, trusted: bool = False) -> None:
        """``seat``'s shares for every position dealt to someone else, one batch proof."""
        entries = self.deal_entries(seat, msg.shares)
        if entries and not trusted and (
            msg.proof is None
            or not verify_shares(self.ctx(seat), self.keys[seat], entries, msg.proof)
        ):
            raise blame(seat, "share-proof", "the deal shares' Chaum–Pedersen proof fails")
        for j, _, d in entries:
            self.shares.setdefault(j, {})[seat] = d
        self.dealt.add(seat)

    # --- positions --------------------------------------------------------------------

    def ciphertext(self, position: int) -> Ciphertext:
        """The ciphertext at ``position``: the final deck's, or (held form) a re-mask's or
        a transfer's."""
        if position < self.config.deck_size:
            return self.final_deck[position]
        return self.masked[position]

    def exists(self, position: int) -> bool:
        """A deck position, or a new position of a re-mask or transfer applied so far."""
        return 0 <= position < self.config.deck_size or position in self.masked

    def holder_of(self, position: int) -> int | None:
        """The seat dealt ``position`` (None: talon), or the holder of a new position
        (the re-masker, or a transfer's receiver)."""
        if position < self.config.deck_size:
            return self.config.schedule[position]
        return self.holder.get(position)

    def held(self, position: int) -> Ciphertext:
        """The position in its held form, under its holder's hand key alone (see the
        module doc): a dealt position less every other seat's deal share."""
        if position >= self.config.deck_size:
            return self.masked[position]
        held = self._held.get(position)
        if held is None:
            a, b = self.final_deck[position]
            others = [d for s, d in self.shares[position].items()
                      if s != self.config.schedule[position]]
            held = (a, add_all([b, neg(add_all(others))]))
            self._held[position] = held
        return held

    def made_of(self, position: int) -> Made | None:
        """The re-mask or transfer that made ``position`` (None for a deck position)."""
        owner = owner_of(self.config.deck_size, self.config.seats, position)
        return None if owner is None else self.rounds.get(owner)

    def next_round(self, seat: int) -> int:
        """The number of ``seat``'s next re-mask or transfer."""
        return sum(1 for made in self.made if made.seat == seat)

    def check_position(self, sender: int, position: int, check: str) -> None:
        """The position exists and ``sender`` has not retired it by a re-mask."""
        if not self.exists(position):
            raise blame(sender, check, f"no position {position}")
        if sender in self.retired.get(position, set()):
            raise blame(sender, "retired", f"position {position} was re-masked by this seat "
                        "and is retired")

    def may_reveal(self, seat: int, position: int) -> bool:
        """Whether ``seat`` may reveal ``position`` now: the talon is anyone's to turn; a
        dealt or re-masked position only its holder's, until the holder hands it over or
        re-masks it (after which only its new positions are live). A card made by a
        transfer is revealed by nobody: its receiver re-masks it first. Decided on the
        holder's own message order, so every seat judges alike."""
        holder = self.holder_of(position)
        if holder is None:
            return True
        made = self.made_of(position)
        return holder == seat and position not in self.given and not isinstance(made, Handover)

    # --- reveals ----------------------------------------------------------------------

    def add_reveal(self, seat: int, msg: RevealMsg, *, trusted: bool = False) -> bool:
        """The sender's share of a position; True when the position has become fully
        public (for a held card, at once: its holder's share is the only one missing)."""
        self.check_position(seat, msg.position, "reveal")
        if not self.may_reveal(seat, msg.position):
            raise blame(seat, "reveal", f"reveals position {msg.position}, which it does not "
                        "hold")
        public = self.shares.setdefault(msg.position, {})
        if seat in public:
            raise blame(seat, "reveal", f"its share of position {msg.position} twice")
        if not trusted:
            self.settle(msg.position)
            self.check_share(seat, msg.position, msg.share, msg.proof)
        public[seat] = msg.share
        return msg.position not in self.revealed and self.complete(msg.position)

    def check_share(self, seat: int, position: int, share: Point, proof: Proof) -> None:
        """``seat``'s own share with its proof: D = x_seat·A_position."""
        ok = verify_dleq(SHARE_TAG, self.ctx(seat), big_x=self.keys[seat],
                         a=self.ciphertext(position)[0], d=share,
                         extra=position_bytes(position), proof=proof)
        if not ok:
            raise blame(seat, "share-proof", f"its share for position {position} has a wrong "
                        "proof")

    def complete(self, position: int) -> bool:
        """Whether every share ``position`` needs is public: every seat's for a deck
        position, its holder's for a re-mask's or a transfer's."""
        public = self.shares.get(position, {})
        if position < self.config.deck_size:
            return len(public) == len(self.config.seats)
        return self.holder.get(position) in public

    def public_card(self, position: int) -> int | None:
        """Decrypt a fully public position; None if it is no card."""
        public = self.shares[position]
        if position < self.config.deck_size:
            return self.plaintext(self.ciphertext(position), list(public.values()))
        return self.plaintext(self.masked[position], [public[self.holder[position]]])

    def plaintext(self, ciphertext: Ciphertext, shares: list[Point]) -> int | None:
        """M = B − Σ D with every share ``ciphertext`` needs; the card index, or None."""
        try:
            m = add_all([ciphertext[1], neg(add_all(shares))])
        except ValueError:
            return None
        return card_lookup(self.config.deck_size).get(encode_point(m))

    # --- transfers --------------------------------------------------------------------

    def add_transfer(self, seat: int, seq: int, msg: TransferMsg, *,
                     trusted: bool = False) -> Handover:
        """A card handed from ``seat`` to ``msg.to``: its held form re-encrypted under
        the receiver's key, checked by the key-switch proof; a new position, held by the
        receiver. The giver may hand over a position it holds, once, and nothing a
        transfer made (that is re-masked first)."""
        self.check_position(seat, msg.position, "transfer")
        if msg.to not in self.keys or msg.to == seat:
            raise blame(seat, "transfer", f"transfer to seat {msg.to}")
        if self.holder_of(msg.position) != seat or msg.position in self.given \
                or isinstance(self.made_of(msg.position), Handover):
            raise blame(seat, "transfer", f"hands over position {msg.position}, which it "
                        "does not hold, or a second time")
        round_ = self.next_round(seat)
        output = self._first(seat, round_, "transfer")
        self.check_parts(seat, (msg.new,), "transfer", trusted=trusted)
        st = self.switch_statement(seat, msg.position, msg.to, msg.new)
        if not trusted and not verify_switch(st, msg.proof):
            raise blame(seat, "transfer", f"the key-switch proof of position {msg.position} "
                        f"to seat {msg.to} fails: the new ciphertext is not its card")
        handover = Handover(seat, round_, msg.position, msg.to, output, seq, msg)
        self._add_made(handover)
        self.masked[output], self.holder[output] = msg.new, msg.to
        self.given[msg.position], self.switched[msg.position] = seat, output
        return handover

    def switch_statement(self, seat: int, position: int, to: int, new: Ciphertext) -> Switch:
        """What the proof of ``seat``'s transfer of ``position`` to ``to`` must show."""
        return Switch(self.ctx(seat), position, to, self.keys[seat], self.keys[to],
                      self.held(position), new)

    @property
    def transfers(self) -> list[Handover]:
        """Every transfer applied, in order."""
        return [made for made in self.made if isinstance(made, Handover)]

    # --- re-masks ---------------------------------------------------------------------

    def remask_ready(self, seat: int, msg: RemaskMsg) -> bool:
        """Whether ``seat``'s re-mask can be judged now. An input that another seat's
        message could still make (a transfer to it not yet arrived) makes it wait; one
        that nothing can make any more is judged (and blamed) at once."""
        for j in msg.inputs:
            if self.exists(j):
                continue
            owner = owner_of(self.config.deck_size, self.config.seats, j)
            if owner is not None and owner[0] != seat and owner not in self.rounds:
                return False
        return True

    def remask_proof_statement(self, seat: int, round_: int, inputs: tuple[int, ...],
                  new: Deck) -> Statement:
        """What the proof of ``seat``'s re-mask ``round_`` of ``inputs`` into ``new``
        must show: the inputs' held forms shuffled under the seat's own key."""
        old = tuple(self.held(j) for j in inputs)
        return Statement(b"remask", self.ctx(seat), self.keys[seat], old, new,
                         remask_statement(round_, inputs))

    def add_remask(self, seat: int, msg: RemaskMsg, *, trusted: bool = False) -> Remask:
        """A seat's re-mask: positions it holds and has not re-masked before, and a
        proven shuffle of their held forms under its key; the inputs are retired for it."""
        round_ = self.next_round(seat)
        first = self._first(seat, round_, "remask")
        for j in msg.inputs:
            if not self.exists(j) or self.holder_of(j) != seat:
                raise blame(seat, "remask", f"re-masks position {j}, which it does not hold")
            if seat in self.retired.get(j, set()):
                raise blame(seat, "retired", f"re-masks position {j} a second time")
        self.check_parts(seat, msg.deck, "remask", trusted=trusted)
        if not trusted:
            st = self.remask_proof_statement(seat, round_, msg.inputs, msg.deck)
            self._check_proof(seat, st, msg.proof, "remask", (seat, round_))
        outputs = tuple(range(first, first + len(msg.inputs)))
        remask = Remask(seat, round_, msg.inputs, outputs, msg)
        self._add_made(remask)
        for j, ciphertext in zip(outputs, msg.deck, strict=True):
            self.masked[j], self.holder[j] = ciphertext, seat
        for j in msg.inputs:
            self.retired.setdefault(j, set()).add(seat)
        return remask

    @property
    def remasks(self) -> list[Remask]:
        """Every re-mask applied, in order."""
        return [made for made in self.made if isinstance(made, Remask)]

    def _first(self, seat: int, round_: int, check: str) -> int:
        c = self.config
        first = first_position(c.deck_size, len(c.seats), c.index(seat), round_)
        if first is None:
            raise blame(seat, check, f"re-mask or transfer number {round_}: too many")
        return first

    def _add_made(self, made: Made) -> None:
        self.made.append(made)
        self.rounds[(made.seat, made.round)] = made


def shuffle_body(deck_size: int, argument: ShuffleArgument) -> int:
    """Bytes of a SHUFFLE body over ``deck_size`` ciphertexts proven with ``argument``
    (msgpack: the array and kind, three ``bin`` headers of up to 5 bytes)."""
    return 2 + 66 * deck_size + 32 + argument.size(deck_size) + 3 * 5
