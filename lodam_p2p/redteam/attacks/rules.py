"""Attacks on the table's rules: false claims, audit openings out of time, silence,
illegal plays and false exchanges, and guessable secrets.

Each is a message (or a silence) a seated peer with valid keys can produce. A table that
works as protocol/SPEC.md says refuses each of them or convicts the attacker on evidence
every honest seat checks for itself, and never blames an honest seat.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lodam_p2p.redteam.attacks.base import (
    Attack,
    claims_kind,
    game_of,
    played,
    without_exchanges,
)
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.movebody import BadMove, ExchangeMove, Tag
from lodam_p2p.session.wire import ACTIONS, Body, Msg, raw_public

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat


class VoidAnyone(Attack):
    """Claim, with no evidence, that an honest seat cheated; and claim it of a seat
    past the end of the table.

    The table must name the claimant (false-claim), never the seat it named."""

    kind, summary = "void-anyone", "void the hand naming an honest seat, and one past the end"

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.attempted or hand is None or adv.roster is None or not hand.dealt:
            return
        self.attempted = True
        seats = hand.config.seats
        victim = seats[0] if seats[0] != adv.seat else seats[1]
        adv.send(Body(Msg.VOID, adv.hand_no, 0, (victim, f"seat {victim}: cheated")))
        adv.send(Body(Msg.VOID, adv.hand_no, 0, (250, "seat 250: cheated")))


class EarlyAuditOpen(Attack):
    """Open its audit secrets in the middle of the deal, to end the hand's secrecy
    early.

    The table must convict it (early-audit) and keep the other seats' cards hidden."""

    kind, summary = "early-audit-open", "open the audit secrets in the middle of the deal"

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if (self.attempted or hand is None or hand.me is None or not hand.dealt
                or hand.public.is_over):
            return
        self.attempted = True
        hand.fair.finish(adv.now())
        adv.send(Body(Msg.PROTO, adv.hand_no, 0, (), tuple(hand.fair.outgoing())))


class WithheldAuditOpening(Attack):
    """Never publish its audit opening at the end of a hand.

    The table must find it silent past the time limit and put it out (timeout)."""

    kind, summary = "withheld-audit-opening", "never open the audit secrets"

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        if body.kind is Msg.NOTES and not (self.attempted and body.hand != self.hand):
            self.attempted, self.hand = True, body.hand
            return []
        return [body]

    hand = 0


class Stall(Attack):
    """Go silent in the middle of the first hand.

    The table must find it silent past the time limit and put it out (timeout)."""

    kind, summary = "stall", "go silent in the middle of the first hand"

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        if body.hand == 1 and body.kind not in (Msg.RESULT, Msg.TIMEOUT, Msg.BYE):
            self.attempted = True
            return []
        return [body]


class SlowHuman(Attack):
    """Claim to be a person, to take a person's time over every decision of the first
    hand, then never decide.

    The table must hold every seat to one time limit and put it out (timeout)."""

    kind, summary = "slow-human", "claim to be human to take minutes over a decision"
    seat_kind = "human"

    def withholds(self, adv: Cheat) -> bool:
        if adv.hand_no == 1:
            self.attempted = True
            return True
        return False


class Revoke(Attack):
    """Play a card of another suit while holding the suit led.

    The table must convict it on the audit's evidence (revoke)."""

    kind, summary = "revoke", "play a card of another suit while holding the suit led"

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        game = game_of(adv)
        wire = game.encode_action(action)
        if self.attempted or not played(wire):
            return action
        legal = {w.card for w in map(game.encode_action, view.legal) if played(w)}
        other = [c for c in view.hand if c not in legal]
        if not legal or not other:
            return action
        self.attempted = True
        return game.decode_action(view.seat, replace(wire, card=other[0]))


class FalseExchangeClaim(Attack):
    """Offer a card in an exchange while claiming it is of the other kind (a coat
    for a plain card, or the reverse).

    The table must convict it once the offer is opened (false-exchange-kind)."""

    kind, summary = "false-exchange-claim", "offer a card while claiming it is of the other kind"

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        if self.attempted or without_exchanges(self, adv):
            return action
        game = game_of(adv)
        offers = [a for a in view.legal if claims_kind(game.encode_action(a))]
        return offers[0] if offers else action

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        try:
            move = ExchangeMove.read(body)
        except BadMove:
            return [body]
        if self.attempted or move.tag is not Tag.OFFER or move.fields[0] is None:
            return [body]
        self.attempted = True
        other = "card" if move.fields[0] == "coat" else "coat"
        return [replace(body, args=replace(move, fields=(other, move.fields[1])).args())]


class PredictableSeed(Attack):
    """Try to rebuild the other seats' identities from small seeds (--seed 0..99,
    the first six places), as a bot seeded by its place would draw them.

    The table's seats must draw from the OS unless told a seed: nothing is found."""

    kind, summary = ("predictable-seed",
                     "guess the other seats' secrets from small seeds (--seed 0..99)")
    #: how many seeds and places are tried (small: the search runs in the seat's loop)
    SEEDS, PLACES = 100, 6

    def seated(self, adv: Cheat) -> None:
        assert adv.roster is not None
        self.attempted = True
        wanted = {s.pubkey: i for i, s in enumerate(adv.roster.sitters) if i != adv.seat}
        for seed in range(self.SEEDS):
            for place in range(self.PLACES):
                key = raw_public(new_identity(seeded(seed, place)))
                if key in wanted:
                    self.learned.append(f"seat {wanted[key]}'s secrets (seed {seed}, "
                                        f"place {place})")


class StaleHandFrame(Attack):
    """From the second hand on, send again its first decision of the first hand, at a
    step of that hand it never reached: a frame of a hand already settled.

    The table must drop a message of a hand already over without letting it touch the
    hand in play, and blame no honest seat for it."""

    kind, summary = "stale-hand-frame", "a decision numbered for a hand already settled"

    def __init__(self) -> None:
        super().__init__()
        self.kept: Body | None = None

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        if self.kept is None and body.kind in ACTIONS and body.hand >= 1:
            self.kept = body
        if self.attempted or self.kept is None or body.hand <= self.kept.hand:
            return [body]
        self.attempted = True
        return [replace(self.kept, step=self.kept.step + 1), body]
