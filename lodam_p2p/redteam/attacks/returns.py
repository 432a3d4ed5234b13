"""Attacks on the table's clocks and on coming back: false TIMEOUT votes, a REJOIN or
RESUME that voids a hand for free, leaving while ahead, and going away and coming back
to stall.

Each of them a seated peer can do with its own valid key and nothing else: vote, say it
is back, say it is the coordinator, or let its presence come and go. A table working as
protocol/SPEC.md says counts a vote only as a fact it checked itself, voids a hand only
for a seat it saw go away, never lets leaving pay, and limits the returns it waits for.
Each attack records in ``learned`` what it won (a seat voted out, a hand voided, a rank
kept, a table held) — never a guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lodam_p2p.fairdeal.messages import Kind
from lodam_p2p.fairdeal.wire import SIG_LEN
from lodam_p2p.redteam.attacks.base import Attack, envelope_kind, framed, others
from lodam_p2p.session.journal import match_snapshot
from lodam_p2p.session.resumestate import pack_state
from lodam_p2p.session.wire import Body, Msg

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat

#: Where the seat number sits in a fair-deal envelope.
_SEAT = SIG_LEN + 24
#: The most votes a voting attack casts in a match (it votes at many steps).
MAX_VOTES = 40


def _awaited(adv: Cheat) -> int | None:
    """The other seat the hand waits for now (a decision or a fair-deal step)."""
    hand = adv.hand
    if hand is None or hand.me is None:
        return None
    due = hand.awaited()
    if due is not None:
        return due[0] if due[0] != hand.me else None
    waiting = hand.fair.awaited()
    return waiting[0][0] if waiting and waiting[0][0] != hand.me else None


class _Votes(Attack):
    """What the voting attacks share: the seats they voted against, and a win when the
    cheat's own machine blames one of them."""

    def __init__(self) -> None:
        super().__init__()
        self.victims: set[int] = set()
        self.cast: set[tuple[int, int, int]] = set()

    def vote(self, adv: Cheat, step: int, seat: int) -> None:
        """Vote once that ``seat`` is silent at ``step`` of the hand in play."""
        key = (adv.hand_no, step, seat)
        if key in self.cast or len(self.cast) >= MAX_VOTES:
            return
        self.cast.add(key)
        self.attempted = True
        if seat != adv.seat and seat < 250:
            self.victims.add(seat)
        adv.say(Body(Msg.TIMEOUT, adv.hand_no, step, (seat,)))

    def won(self, adv: Cheat) -> None:
        """Note every victim the cheat's own machine blames (put out on the votes)."""
        for seat in sorted(self.victims):
            line = f"seat {seat} put out on a false TIMEOUT vote"
            if framed(adv, seat) and line not in self.learned:
                self.learned.append(line)


class LoneTimeoutVote(_Votes):
    """Vote TIMEOUT, alone, against the seat the hand awaits, at every step, as soon as
    the step begins: that seat is answering in time.

    The table must count a vote only when it agrees itself that the accused is the seat
    awaited, at that step, past its deadline; a lone voter convicts no one, and where too
    few seats remain to convict, the hand is void without blame."""

    kind, summary = ("lone-timeout-vote",
                     "vote TIMEOUT alone against an honest seat that is answering in time")

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if hand is not None and hand.dealt:
            seat = _awaited(adv)
            if seat is not None and adv.active()[seat]:
                self.vote(adv, hand.step, seat)
        self.won(adv)


class FutureStepVote(_Votes):
    """Vote TIMEOUT against every other seat at a step the hand has not reached, so that
    the votes are counted when the step comes.

    The table must refuse a vote for a step not yet reached (it cannot be a checked fact)
    and never let it count later."""

    kind, summary = ("future-step-vote",
                     "vote TIMEOUT against the others at steps the hand has not reached")

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if hand is not None and hand.dealt:
            for seat in others(adv):
                if adv.active()[seat]:
                    for ahead in (1, 2, 3):
                        self.vote(adv, hand.step + ahead, seat)
        self.won(adv)


class StrayTimeoutVote(_Votes):
    """Vote TIMEOUT against itself, against a seat past the end of the table and against
    every seat already out of the match.

    The table must take none of these as a vote (nor crash on them), and a vote against
    oneself must never complete a quorum against anyone."""

    kind, summary = ("stray-timeout-vote",
                     "vote TIMEOUT against itself, a seat past the end and seats already out")

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if hand is None or not hand.dealt or adv.seat is None:
            return
        self.vote(adv, hand.step, adv.seat)
        self.vote(adv, hand.step, 250)
        for seat in others(adv):
            if not adv.active()[seat]:
                self.vote(adv, hand.step, seat)
        self.won(adv)


class RejoinMulligan(Attack):
    """Stay connected and send REJOIN(hand, []) as soon as another seat's audit opening
    of the hand is out — the cards are known, the hand is as good as lost — so that the
    coordinator voids the hand and deals again, with no one blamed.

    The table must take REJOIN only from a seat it saw go away, never once an audit
    opening of the hand is out, and at most a few times a match: the hand stands."""

    kind, summary = ("rejoin-mulligan",
                     "void a lost hand with REJOIN while connected, after the openings")

    def __init__(self) -> None:
        super().__init__()
        self.hands: set[int] = set()

    def heard(self, adv: Cheat, peer: str, body: Body) -> None:
        if (body.kind is Msg.NOTES and body.hand == adv.hand_no and peer != adv.me
                and adv.seat is not None and adv.hand is not None
                and body.hand not in self.hands and len(self.hands) < 3):
            self.attempted = True
            self.hands.add(body.hand)
            adv.say(Body(Msg.REJOIN, args=(body.hand, [])))
        elif (body.kind is Msg.RESUME and body.args and body.args[0] == adv.seat
              and body.hand in self.hands):
            self.learned.append(f"hand {body.hand} voided after its audit openings")


class ResumeSameHand(Attack):
    """Send RESUME naming the hand already begun, in every hand — as the coordinator of
    another seat's return where it is one (the lowest seat but that one), else as
    itself: the honest seats would deal the hand again at the same number and sign a
    second hand key at seq 0; then claim, with both keys of a victim, that the victim
    equivocated.

    The table must refuse a RESUME for a seat that did not come back, from a seat that is
    not its coordinator, or naming a hand already begun; an honest seat never signs two
    envelopes for one (hand, seq)."""

    kind, summary = ("resume-same-hand",
                     "RESUME the hand already begun, then show a victim's two hand keys")
    joins_early = True

    def __init__(self) -> None:
        super().__init__()
        self.hands: set[int] = set()
        #: (hand, seat) → the distinct hand-key envelopes heard from that seat
        self.keys: dict[tuple[int, int], list[bytes]] = {}
        self.claimed: set[int] = set()

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if hand is None or hand.me is None or adv.match is None:
            return
        # as the coordinator of a seat's return if it is one (the two lowest seats are),
        # else as itself: a RESUME from a seat that is not the coordinator
        back = next((s for s in others(adv) if adv.coordinator(s) == adv.seat),
                    others(adv)[0])
        if (adv.hand_no in self.hands or len(self.hands) >= 20
                or len(hand.fair.record.keys) < len(hand.config.seats)):
            self.won(adv)
            return
        self.attempted = True
        self.hands.add(adv.hand_no)
        state = match_snapshot(adv.match, adv.hand_no, adv.audits, adv.blames, adv.game)
        adv.say(Body(Msg.RESUME, adv.hand_no, 0, (back, adv.hand_no, pack_state(state))))

    def heard(self, adv: Cheat, peer: str, body: Body) -> None:
        if body.kind is not Msg.PROTO or body.hand not in self.hands:
            return
        for raw in body.envelopes:
            if len(raw) <= _SEAT or envelope_kind(raw) is not Kind.KEY:
                continue
            seen = self.keys.setdefault((body.hand, raw[_SEAT]), [])
            if raw not in seen:
                seen.append(raw)
            if len(seen) == 2 and raw[_SEAT] not in self.claimed:
                self.claimed.add(raw[_SEAT])
                adv.say(Body(Msg.VOID, body.hand, 0,
                              (raw[_SEAT], f"seat {raw[_SEAT]}: equivocation"), tuple(seen)))

    def won(self, adv: Cheat) -> None:
        """Note a victim the cheat's own machine convicted on the two keys."""
        for seat in sorted(self.claimed):
            line = f"seat {seat} convicted on two hand keys it was made to sign"
            if framed(adv, seat) and line not in self.learned:
                self.learned.append(line)


class LeaveWhileLeading(Attack):
    """Leave the match (its presence says gone, and it says nothing more) at its first
    turn when it stands first (alone or shared), expecting the standings of the match
    ended early to rank it first.

    The table must rank a seat that left, or was put out, below every seat still
    playing, whatever the score when it left."""

    kind, summary = ("leave-while-leading",
                     "leave while first, expecting the standings to keep it first")

    def __init__(self) -> None:
        super().__init__()
        self.left = False

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.left or hand is None or not hand.dealt or not hand.my_turn():
            return
        ranks = adv.standings().ranks
        if adv.seat is None or ranks[adv.seat] != min(ranks):
            return
        self.attempted = self.left = True
        adv.go(False)

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        return [] if self.left else [body]

    def withholds(self, adv: Cheat) -> bool:
        return self.left

    def heard(self, adv: Cheat, peer: str, body: Body) -> None:
        if self.left and body.kind is Msg.RESULT and adv.seat in body.args[0]:
            line = "ranked among the winners after leaving"
            if line not in self.learned:
                self.learned.append(line)


class AwayToggle(Attack):
    """When its turn comes, say it is gone; come back just inside half the table's grace
    and go again at once, over and over: every return restarts the clocks, so the table
    waits and blames no one.

    The table must count away/return cycles from the seat's own missed steps and limit
    them: past the limit the seat has left (and is named), and the honest seats finish."""

    kind, summary = ("away-toggle",
                     "drop and return inside the grace time, again and again, to stall")
    CYCLES = 5  #: returns before the attack gives up and plays on

    def __init__(self) -> None:
        super().__init__()
        self.cycles = 0
        self.away_since: float | None = None
        self.stalled = 0.0

    def due(self, adv: Cheat) -> float | None:
        if self.away_since is None:
            return None
        return self.away_since + adv.timing.grace_s / 2

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.away_since is not None:
            now = adv.now()
            if now < self.away_since + adv.timing.grace_s / 2:
                return
            self.stalled += now - self.away_since
            self.cycles += 1
            adv.go(True)
            self.away_since = None
            if self.cycles < self.CYCLES:
                self.away_since = now
                adv.go(False)
            return
        if self.cycles or hand is None or not hand.dealt or not hand.my_turn():
            return
        self.attempted = True
        self.away_since = adv.now()
        adv.go(False)

    def withholds(self, adv: Cheat) -> bool:
        return self.away_since is not None

    def over(self, adv: Cheat) -> None:
        named = f"seat {adv.seat}: "
        if (self.cycles >= self.CYCLES and not self.learned
                and not any(line.startswith(named) for result in adv.results.values()
                            for line in result[4])):
            self.learned.append(f"held the table {self.stalled:g} s over {self.cycles} "
                                "returns inside the grace, and no one named it")
