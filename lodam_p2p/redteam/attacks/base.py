"""What every attack of ``lodam adversary`` is made of: :class:`Attack` and its helpers.

An :class:`Attack` hooks into a cheating seat (:class:`~lodam_p2p.redteam.seat.Cheat`)
at a few places: the bodies it is about to publish (:meth:`Attack.outgoing`: tamper with
them, add to them, or hold them back), what it hears from the others
(:meth:`Attack.heard`), each turn of its loop (:meth:`Attack.tick`), the decisions its
random player takes (:meth:`Attack.decide`), the start of its session
(:meth:`Attack.started`) and the start of the match (:meth:`Attack.seated`). It mounts
its attack at the first chance and records that it did (``attempted``), what it got out
of it (``learned``: only what it actually recovered or won, never a guess) and, when it
could not be mounted at this table, why (``reason``). Everything else the seat does is
what an honest random bot does.

The helpers here re-sign what the seat changed (:func:`reseal`, :func:`relink`) and pick
actions through the table's game (:class:`~lodam_p2p.games.Game`): a card traded face
down is one whose action the others may not see, a card played is one that travels face
up.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lodam_p2p.fairdeal.messages import Kind, kind_of
from lodam_p2p.fairdeal.messages import decode as decode_message
from lodam_p2p.fairdeal.proofs import Proof
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.games import Game, Passage, WireAction
from lodam_p2p.session.wire import Body

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat

#: Where ``prev`` (the digest of the sender's envelope before) sits in an envelope.
_PREV = slice(SIG_LEN + HEADER_LEN - 32, SIG_LEN + HEADER_LEN)


class Attack:
    """One way to cheat (see the module docstring); the base plays honestly."""

    kind = ""
    summary = ""
    seat_kind = "bot:random"
    #: the attack wants a low seat (it joins before the honest seats in a campaign,
    #: ``lodam adversary --campaign``): the coordinator of another seat's return is one
    joins_early = False

    def __init__(self) -> None:
        self.attempted = False
        self.learned: list[str] = []
        #: why the attack could not be mounted here (None: it could, or it still may)
        self.reason: str | None = None

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        """The bodies to publish in place of ``body``."""
        return [body]

    def heard(self, adv: Cheat, peer: str, body: Body) -> None:
        """``peer`` said ``body`` (before the seat's machine took it)."""

    def tick(self, adv: Cheat) -> None:
        """Called on every turn of the seat's loop once the match began."""

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        """The action to send in place of the player's ``action`` (``view``: the seat's
        view in the table's game)."""
        return action

    def due(self, adv: Cheat) -> float | None:
        """When the attack next wants a turn of the loop, whatever comes (None: only when
        something comes)."""
        return None

    def withholds(self, adv: Cheat) -> bool:
        """Whether the seat keeps its player from deciding now."""
        return False

    def started(self, adv: Cheat) -> None:
        """The seat's session began (the lobby: no roster yet)."""

    def seated(self, adv: Cheat) -> None:
        """The roster is known."""

    def over(self, adv: Cheat) -> None:
        """The match is over (the report is due): settle what the attack won."""

    def give_up(self, reason: str) -> None:
        """The attack cannot be mounted at this table, for ``reason``."""
        if not self.attempted:
            self.reason = reason


def reseal(adv: Cheat, raw: bytes, body: bytes, header: bytes | None = None, *,
           instead: bool = True) -> bytes:
    """``raw`` with its body (and header) replaced, signed again with the seat's key.

    ``instead``: the new envelope takes the old one's place in the seat's chain, so its
    later envelopes are chained to it (:func:`relink`) and the cheat is judged on its
    own, not on a broken chain."""
    signed = (header or raw[SIG_LEN:SIG_LEN + HEADER_LEN]) + body
    new = adv.identity.sign(signed) + signed
    if instead:
        adv.relinked[hashlib.sha256(raw).digest()] = hashlib.sha256(new).digest()
    return new


def relink(adv: Cheat, raw: bytes) -> bytes:
    """``raw`` chained to the replacement of the envelope it followed, if one was sent."""
    prev = adv.relinked.get(raw[_PREV])
    if prev is None:
        return raw
    signed = raw[SIG_LEN:_PREV.start] + prev + raw[_PREV.stop:]
    new = adv.identity.sign(signed) + signed
    adv.relinked[hashlib.sha256(raw).digest()] = hashlib.sha256(new).digest()
    return new


def envelope_kind(raw: bytes) -> Kind | None:
    """The fair-deal kind of an envelope (None if it does not parse)."""
    try:
        return kind_of(decode_message(raw[SIG_LEN + HEADER_LEN:]))
    except (ValueError, KeyError):
        return None


def game_of(adv: Cheat) -> Game:
    """The game the seat's table plays (known once the match began)."""
    assert adv.game is not None
    return adv.game


def trades(adv: Cheat, view: Any) -> list[Any]:
    """The legal actions that pass a card face down to another seat (offers, answers)."""
    game = game_of(adv)
    return [a for a in view.legal if game.public_action(a) is None]


def without_exchanges(attack: Attack, adv: Cheat) -> bool:
    """True (and the attack given up, with why) if the table's game passes no card face
    down between seats: an attack on exchanges has nothing to work on there."""
    if adv.game is not None and adv.game.exchanges is None:
        attack.give_up(f"{adv.game.name} has no hidden exchanges to attack")
        return True
    return False


def bad_proof(proof: Proof | None) -> Proof | None:
    """``proof`` with its response moved by one: a proof that fails."""
    return None if proof is None else replace(proof, s=proof.s + 1)


def played(wire: WireAction) -> bool:
    """Whether ``wire`` puts a card down face up (a card played to a trick)."""
    return wire.card is not None and wire.passage is Passage.FACE_UP


def claims_kind(wire: WireAction) -> bool:
    """Whether ``wire`` puts a card down face down and says what kind it is (an offer)."""
    return (wire.card is not None and wire.passage is Passage.FACE_DOWN
            and bool(wire.args) and wire.args[0] is not None)


def others(adv: Cheat) -> list[int]:
    """The seats of the match other than the cheat's own, in seat order."""
    assert adv.roster is not None
    return [s for s in range(len(adv.roster.sitters)) if s != adv.seat]


def framed(adv: Cheat, seat: int) -> bool:
    """Whether the cheat's own machine blamed ``seat`` (a seat the attack framed)."""
    return any(line.startswith(f"seat {seat}:") for line in adv.blames)
