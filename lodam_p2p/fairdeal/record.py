"""The public record of a hand, and the checks any observer can make on it.

This module does not know which seat, if any, is "us" (h11's rule): every seat and the
offline verifier run the same checks on the same public messages. Secrets live in
``hand.py``.

What is stored, per hand:
  keys      X_i per seat, and the joint key H = Σ X_i
  decks     decks[0] the starting deck, decks[i+1] the deck after the i-th shuffler
  shares    public decryption shares: position → seat → D_ij (deals, re-mask shares,
            reveals)
  revealed  positions made public: position → card index
  remasks   every re-mask applied, in order; ``masked`` the ciphertext and ``holder`` the
            re-masker of each new position; ``retired`` the seats that re-masked a position;
            ``given`` the seats that transferred a position (neither may reveal it)

Every shuffle and re-mask is checked by its proof of shuffle when it is added, before
any seat can answer it with a decryption share (unless the table plays without proofs).
An observer that follows a live table (the host's watcher) answers nothing, so it may
leave those checks, and those of the re-masks' share batches, until a seat claims a
cheat (``lazy``, ``check_unchecked``).

Positions below K are the final deck's; positions from K on are re-masks' (remask.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

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
    DealMsg,
    KeyMsg,
    RemaskMsg,
    RevealMsg,
    ShareEntry,
    SharesMsg,
    ShuffleMsg,
    TransferMsg,
    position_bytes,
)
from lodam_p2p.fairdeal.proofs import Context, Proof, verify_dleq, verify_key, verify_shares
from lodam_p2p.fairdeal.remask import Remask, first_position, owner_of, remask_statement
from lodam_p2p.fairdeal.shuffle import Ciphertext, Deck, starting_deck
from lodam_p2p.fairdeal.shuffleproof import ShuffleProof, Statement, verify_shuffle
from lodam_p2p.fairdeal.transfer import unseal

#: Fiat–Shamir tag of a single decryption share (reveals and transfers).
SHARE_TAG = b"share"


@dataclass(frozen=True, slots=True)
class Deferred:
    """A check a lazy observer took unchecked: a proof of shuffle (``proof``) or a
    re-mask's share batch (``shares``); ``run`` raises the blame an eager observer would
    have raised when it came. ``remask``: the (seat, round) of the re-mask it is about."""

    what: str
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
    transfers: list[tuple[int, int, TransferMsg]] = field(default_factory=list)
    received: dict[int, set[int]] = field(default_factory=dict)
    remasks: list[Remask] = field(default_factory=list)
    rounds: dict[tuple[int, int], Remask] = field(default_factory=dict)
    masked: dict[int, Ciphertext] = field(default_factory=dict)
    holder: dict[int, int] = field(default_factory=dict)
    retired: dict[int, set[int]] = field(default_factory=dict)
    given: dict[int, set[int]] = field(default_factory=dict)
    #: an observer that answers nothing may take proofs of shuffle and re-mask share
    #: batches unchecked until a claim comes (``Hand(lazy=True)``); they wait here, in
    #: the order taken
    lazy: bool = False
    unchecked: list[Deferred] = field(default_factory=list)

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
        """A seat's hand key; once all are in, the joint key and the starting deck."""
        if not trusted and not verify_key(self.ctx(seat), msg.key, msg.proof):
            raise blame(seat, "key-proof", "the proof of knowledge of the hand key fails")
        self.keys[seat] = msg.key
        if len(self.keys) == len(self.config.seats):
            self._start_deck(seat)

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
            self._check_proof(seat, self.statement(seat, b"shuffle", self.final_deck, msg.deck,
                                                   msg.commitment), msg.proof, "shuffle")
        self.commitments[seat] = msg.commitment
        self.decks.append(msg.deck)

    def check_parts(self, seat: int, deck: Deck, check: str, *, trusted: bool = False) -> None:
        """No ciphertext twice, and (from another seat) no part equal to G, a hand key or
        the joint key (the identity has no encoding): such a part would make honest seats
        publish x_i·X_j. The proof of shuffle excludes it too; this is a cheap first line."""
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

    def statement(self, seat: int, tag: bytes, old: Deck, new: Deck,
                  extra: bytes = b"") -> Statement:
        """What ``seat``'s proof of shuffle from ``old`` to ``new`` must show."""
        assert self.joint is not None
        return Statement(tag, self.ctx(seat), self.joint, old, new, extra)

    def statement_of_remask(self, seat: int, round_: int, inputs: tuple[int, ...], new: Deck,
                         carried: tuple[tuple[Point, ...], ...]) -> Statement:
        """What the proof of ``seat``'s re-mask must show: its inputs' ciphertexts
        shuffled into ``new``, carrying the carriers' published shares along."""
        old = tuple(self.ciphertext(j) for j in inputs)
        carriers = self.carriers(seat, inputs)
        st = self.statement(seat, b"remask", old, new, remask_statement(round_, inputs))
        return replace(st, share_keys=tuple(self.keys[c] for c in carriers),
                       shares_in=self.carried_in(carriers, inputs), shares_out=carried)

    def _check_proof(self, seat: int, st: Statement, proof: ShuffleProof | None,
                     check: str, remask: tuple[int, int] | None = None) -> None:
        if not self.config.proofs:
            if proof is not None:
                raise blame(seat, check, "a proof of shuffle at a table without proofs")
            return
        if proof is not None and self.lazy:
            self.unchecked.append(Deferred("proof", lambda: self._verify_proof(
                seat, st, proof, check), remask))
            return
        self._verify_proof(seat, st, proof, check)

    @staticmethod
    def _verify_proof(seat: int, st: Statement, proof: ShuffleProof | None,
                      check: str) -> None:
        if proof is None or not verify_shuffle(st, proof):
            raise blame(seat, check, "the proof of shuffle fails: the new ciphertexts are "
                        "not a re-encryption of the old ones")

    def check_unchecked(self) -> None:
        """Check every proof taken unchecked, in the order taken (the first that fails
        blames its sender), and every one from now on as it comes."""
        self.lazy = False
        pending, self.unchecked = self.unchecked, []
        for deferred in pending:
            deferred.run()

    def settle(self, position: int) -> None:
        """Before a lazy observer decrypts a re-masked position: check what it took
        unchecked about the re-mask that made it (its proof, which shows the shares it
        carried right, and the share batches answering it), so that the card it shows
        rests on no unchecked share. The rest stays unchecked."""
        key = owner_of(self.config.deck_size, self.config.seats, position)
        if key is None or not self.unchecked:
            return
        mine = [d for d in self.unchecked if d.remask == key]
        if mine:
            self.unchecked = [d for d in self.unchecked if d.remask != key]
            for deferred in mine:
                deferred.run()

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

    # --- single shares (reveal, transfer) -----------------------------------------------

    def check_entry(self, sender: int, position: int, entry: ShareEntry, check: str) -> None:
        """One share with its owner's proof: D = x_owner·A_position."""
        if entry.seat not in self.keys:
            raise blame(sender, check, f"share from unknown seat {entry.seat}")
        a = self.ciphertext(position)[0]
        ok = verify_dleq(SHARE_TAG, self.ctx(entry.seat), big_x=self.keys[entry.seat], a=a,
                         d=entry.share, extra=position_bytes(position), proof=entry.proof)
        if not ok:
            raise blame(sender, check, f"seat {entry.seat}'s share for position {position} "
                        "has a wrong proof")

    def check_position(self, sender: int, position: int, check: str) -> None:
        """The position exists and ``sender`` has not retired it by a re-mask."""
        if not self.exists(position):
            raise blame(sender, check, f"no position {position}")
        if sender in self.retired.get(position, set()):
            raise blame(sender, "retired", f"position {position} was re-masked by this seat "
                        "and is retired")

    def may_reveal(self, seat: int, position: int) -> bool:
        """Whether ``seat`` holds ``position`` now: the talon is anyone's to turn; a dealt
        or re-masked position only its holder's, until the holder hands it over or
        re-masks it (after which only its new positions are live). Decided on the
        holder's own message order, so every seat judges alike."""
        holder = self.holder_of(position)
        if holder is None:
            return True
        return holder == seat and seat not in self.given.get(position, set())

    def add_reveal(self, seat: int, msg: RevealMsg, *, trusted: bool = False) -> bool:
        """Publish shares; True when the position has become fully public."""
        self.check_position(seat, msg.position, "reveal")
        if not self.may_reveal(seat, msg.position):
            raise blame(seat, "reveal", f"reveals position {msg.position}, which it does not "
                        "hold")
        if not trusted:
            self.settle(msg.position)
        public = self.shares.setdefault(msg.position, {})
        if not msg.entries or len({e.seat for e in msg.entries}) != len(msg.entries):
            raise blame(seat, "reveal", "no shares, or one seat's share twice")
        for entry in msg.entries:
            if not trusted:
                self.check_entry(seat, msg.position, entry, "share-proof")
            public[entry.seat] = entry.share
        return msg.position not in self.revealed and len(public) == len(self.config.seats)

    def add_transfer(self, seat: int, seq: int, msg: TransferMsg) -> None:
        """A sealed transfer; only its receiver can check it before the audit."""
        self.check_position(seat, msg.position, "transfer")
        if msg.to not in self.keys or msg.to == seat:
            raise blame(seat, "transfer", f"transfer to seat {msg.to}")
        self.transfers.append((seat, seq, msg))
        self.given.setdefault(msg.position, set()).add(seat)
        self.received.setdefault(msg.to, set()).add(msg.position)

    def public_sharers(self, position: int) -> set[int]:
        """Seats whose share for ``position`` the deal (or the re-mask) made public."""
        owner = self.holder_of(position)
        return set() if owner is None else set(self.config.seats) - {owner}

    def open_transfer(self, sender: int, msg: TransferMsg, key: bytes) -> tuple[ShareEntry, ...]:
        """Unseal a transfer and check it is no false claim: every carried share proven,
        and with the deal's shares and the receiver's own they decrypt the position."""
        try:
            entries = unseal(key, msg.sealed)
        except ValueError as err:
            raise blame(sender, "transfer",
                        f"transfer of position {msg.position}: {err}") from None
        for entry in entries:
            if entry.seat == msg.to:
                raise blame(sender, "transfer", "transfer carries the receiver's own share")
            self.check_entry(sender, msg.position, entry, "transfer")
        covered = self.public_sharers(msg.position) | {e.seat for e in entries} | {msg.to}
        lacking = sorted(set(self.config.seats) - covered)
        if lacking:
            raise blame(sender, "transfer", f"transfer of position {msg.position} to seat "
                        f"{msg.to} lacks the shares of seats {lacking}")
        return entries

    # --- decryption -------------------------------------------------------------------

    def plaintext(self, position: int, shares: list[Point]) -> int | None:
        """M = B − Σ D_i with every seat's share; the card index, or None if no card."""
        b = self.ciphertext(position)[1]
        try:
            m = add_all([b, neg(add_all(shares))])
        except ValueError:
            return None
        return card_lookup(self.config.deck_size).get(encode_point(m))

    def public_card(self, position: int) -> int | None:
        """Decrypt a fully public position."""
        return self.plaintext(position, list(self.shares[position].values()))

    # --- positions and re-masks ---------------------------------------------------------

    def ciphertext(self, position: int) -> Ciphertext:
        """The ciphertext at ``position``: the final deck's, or a re-mask's."""
        if position < self.config.deck_size:
            return self.final_deck[position]
        return self.masked[position]

    def exists(self, position: int) -> bool:
        """A deck position, or a new position of a re-mask applied so far."""
        return 0 <= position < self.config.deck_size or position in self.masked

    def holder_of(self, position: int) -> int | None:
        """The seat dealt ``position`` (None: talon), or the re-masker of a new position."""
        if position < self.config.deck_size:
            return self.config.schedule[position]
        return self.holder.get(position)

    def knows(self, seat: int, position: int) -> bool:
        """Whether ``seat`` can read ``position``: dealt to it, its own re-mask's, or
        handed to it by a transfer."""
        return self.holder_of(position) == seat or position in self.received.get(seat, set())

    def remask_ready(self, seat: int, msg: RemaskMsg) -> bool:
        """Whether ``seat``'s re-mask can be judged now. An input another seat's message
        could still make readable (a transfer in flight, a re-mask not yet arrived), or
        a carried share of a readable input not yet published (a share batch in flight),
        makes it wait; one that nothing can fix is judged (and blamed) at once."""
        for j in msg.inputs:
            if self.knows(seat, j):
                continue
            owner = owner_of(self.config.deck_size, self.config.seats, j)
            if owner is None or owner[0] != seat:
                return False
        readable = tuple(j for j in msg.inputs if self.knows(seat, j))
        return self.carried_public(self.carriers(seat, msg.inputs), readable)

    # Carried shares. Every seat c but the re-masker must have published its share
    # x_c·A of each new position before the re-masker can reveal or hand one over. A
    # seat whose share of every input is public already (from the deal, an earlier
    # re-mask, a share batch) need not say anything: D'_k = D_π(k) + r_k·X_c follows
    # from public points and the re-masker's r_k, so the re-masker computes it and its
    # proof of shuffle shows it right (shuffleproof.py). Only a seat whose own share of
    # some input is not public, the holder a received position came from, still
    # answers with a share batch. At a table of four an exchange then costs two
    # batches instead of six. Without proofs nothing would show a carried share right,
    # so every other seat answers, as before.
    def carriers(self, seat: int, inputs: tuple[int, ...]) -> tuple[int, ...]:
        """The seats whose shares ``seat``'s re-mask of ``inputs`` carries, in seat
        order: every other seat but the holders of the inputs (none without proofs)."""
        if not self.config.proofs:
            return ()
        holders = {self.holder_of(j) for j in inputs}
        return tuple(s for s in self.config.seats if s != seat and s not in holders)

    def carried_public(self, carriers: tuple[int, ...], inputs: tuple[int, ...]) -> bool:
        """Whether every carrier's share of every input is published."""
        return all(c in self.shares.get(j, {}) for j in inputs for c in carriers)

    def carried_in(self, carriers: tuple[int, ...],
                   inputs: tuple[int, ...]) -> tuple[tuple[Point, ...], ...]:
        """Each carrier's published share of each input (``KeyError`` if one is not)."""
        return tuple(tuple(self.shares[j][c] for j in inputs) for c in carriers)

    def add_remask(self, seat: int, msg: RemaskMsg, *, trusted: bool = False) -> Remask:
        """A seat's re-mask: its inputs readable by it and not re-masked by it before,
        and a proven shuffle of their ciphertexts; the inputs are retired for it."""
        round_ = sum(1 for r in self.remasks if r.seat == seat)
        c = self.config
        first = first_position(c.deck_size, len(c.seats), c.index(seat), round_)
        if first is None:
            raise blame(seat, "remask", f"re-mask number {round_}: too many re-masks")
        for j in msg.inputs:
            if not self.exists(j) or not self.knows(seat, j):
                raise blame(seat, "remask", f"re-masks position {j}, which it cannot read")
            if seat in self.retired.get(j, set()):
                raise blame(seat, "retired", f"re-masks position {j} a second time")
        self.check_parts(seat, msg.deck, "remask", trusted=trusted)
        carriers = self.carriers(seat, msg.inputs)
        if len(msg.carried) != len(carriers) \
                or any(len(row) != len(msg.inputs) for row in msg.carried):
            raise blame(seat, "remask", f"carries {len(msg.carried)} seats' shares, expected "
                        f"{len(carriers)}, one per position")
        if not self.carried_public(carriers, msg.inputs):
            # remask_ready holds a re-mask back until they are in; a record fed out of
            # that order (not by a Hand) judges the re-masker, who sent it too early
            raise blame(seat, "remask", "re-masks a position whose shares are not all public")
        if not trusted:
            st = self.statement_of_remask(seat, round_, msg.inputs, msg.deck, msg.carried)
            self._check_proof(seat, st, msg.proof, "remask", (seat, round_))
        outputs = tuple(range(first, first + len(msg.inputs)))
        remask = Remask(seat, round_, msg.inputs, outputs, msg)
        self.remasks.append(remask)
        self.rounds[(seat, round_)] = remask
        for j, ciphertext in zip(outputs, msg.deck, strict=True):
            self.masked[j] = ciphertext
            self.holder[j] = seat
        for carrier, row in zip(carriers, msg.carried, strict=True):
            remask.shares[carrier] = row
            for j, d in zip(outputs, row, strict=True):
                self.shares.setdefault(j, {})[carrier] = d
        for j in msg.inputs:
            self.retired.setdefault(j, set()).add(seat)
        return remask

    def remask_of(self, position: int) -> Remask | None:
        """The re-mask that made ``position`` (None for a deck position)."""
        owner = owner_of(self.config.deck_size, self.config.seats, position)
        return None if owner is None else self.rounds.get(owner)

    def shared(self, remask: Remask) -> bool:
        """Every seat but the re-masker has published its shares for the new positions."""
        return len(remask.shares) == len(self.config.seats) - 1

    def remask_entries(self, remask: Remask, shares: tuple[Point, ...],
                       sender: int) -> list[tuple[int, Point, Point]]:
        """Pair a seat's shares for a re-mask with the new positions and their A."""
        if len(shares) != len(remask.outputs):
            raise blame(sender, "shares", f"{len(shares)} shares for a re-mask of "
                        f"{len(remask.outputs)} positions")
        return [(j, self.masked[j][0], d) for j, d in zip(remask.outputs, shares, strict=True)]

    def _check_shares(self, sender: int, entries: list[tuple[int, Point, Point]],
                      proof: Proof) -> None:
        if not verify_shares(self.ctx(sender), self.keys[sender], entries, proof,
                             tag=b"remask"):
            raise blame(sender, "share-proof", "the re-mask shares' Chaum–Pedersen proof fails")

    def add_shares(self, sender: int, msg: SharesMsg, *, trusted: bool = False) -> Remask:
        """A seat's shares for another seat's re-mask, checked by their batch proof."""
        remask = self.rounds[(msg.seat, msg.round)]
        if sender == remask.seat or sender in remask.shares:
            raise blame(sender, "shares", f"shares for re-mask {msg.round} of seat {msg.seat} "
                        "from its re-masker, twice, or carried by the re-mask")
        entries = self.remask_entries(remask, msg.shares, sender)
        if not trusted:
            # a lazy observer keeps the shares unchecked: the re-masker checks them before
            # it reveals or transfers a position, so no honest move rests on them
            if self.lazy:
                self.unchecked.append(Deferred("shares", lambda: self._check_shares(
                    sender, entries, msg.proof), (msg.seat, msg.round)))
            else:
                self._check_shares(sender, entries, msg.proof)
        remask.shares[sender] = msg.shares
        for j, _, d in entries:
            self.shares.setdefault(j, {})[sender] = d
        return remask
