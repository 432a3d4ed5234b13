"""One hand at one peer: the public deal, the fair-deal protocol, and the glue between.

Theory of operation. RULES.md 4 deals ``deck[k], deck[k+m], …`` to the k-th active seat
from the eldest and leaves ``deck[m·h:]`` as the talon. The fair-deal protocol deals
*positions* of a jointly shuffled deck, so the deck order *is* the position order: the
schedule is :func:`~lodam_p2p.fairdeal.deal_schedule` over the dealing order, and the
talon's top is position ``m·h``. Card index ``i`` of the protocol is the ``i``-th card of
the pack (:data:`~lodam_p2p.rules.FULL_PACK` or ``SHORT_PACK``).

Everything else is public bookkeeping that every peer does alike:

- *holdings*: which positions each seat holds. A card played names its position and the
  player reveals it (forwarding the shares it received in an exchange); a position a
  seat does not hold is refused before anything is fed to the protocol.
- *the trump*: when a revealed card turns out to be the first renounce, every seat of
  the hand publishes its share of the talon's top; the play counts once it is public.
- *exchanges*: an offer is a kind and a salted commitment to the position put down; an
  accepting answer hands its position over at once (a private transfer to the offerer);
  the offerer, having learnt that card, hands its own over and announces the outcome,
  void or done. Both traders learn both cards; holdings swap only when it is done.
- *the audit*: when the deal is over each seat opens its offer commitments beside its
  fair-deal opening; the protocol's audit then calls :meth:`HandPlay._check`, which
  replays the full deal (:mod:`.audit`).

Actions are taken in the public deal's turn order only (:meth:`route`), whatever order
the network delivers them in. The class is sans-IO: it returns bodies to send
(:attr:`outbox`) and never reads a clock.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, Phase, RemoteProtocolError, deal_schedule
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.rules import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Card,
    Challenge,
    Deal,
    Decision,
    Declare,
    Kind,
    Offer,
    Play,
    PlayerView,
    PublicDeal,
    RulesError,
    Swallow,
    legal_actions_for,
)
from lodam_p2p.rules.view import build_view
from lodam_p2p.session.audit import DealSetup, Logged, Replay, offer_commitment
from lodam_p2p.session.wire import MAX_ENVELOPES, Body, Msg

_MSG_OF = {Decision.OFFER: Msg.OFFER, Decision.ANSWER: Msg.ANSWER, Decision.PLAY: Msg.PLAY,
           Decision.SWALLOW: Msg.SWALLOW, Decision.DECLARE: Msg.DECLARE,
           Decision.CHALLENGE: Msg.CHALLENGE}


class Route(enum.Enum):
    """What to do with the message at the head of a peer's queue."""

    TAKE = "take"  #: its turn has come
    WAIT = "wait"  #: it belongs later
    DROP = "drop"  #: stale or out of place


class Refused(ValueError):
    """A message that does not fit the hand: ignored, with this reason logged."""


class Blamed(Exception):
    """A seat broke the hand (detected locally): the hand is void."""

    def __init__(self, blame: Blame) -> None:
        super().__init__(str(blame))
        self.blame = blame


@dataclass(frozen=True, slots=True)
class Applied:
    """A public decision taken: who, what others may see of it, and a sentence."""

    seat: int
    shown: Action | None
    text: str


@dataclass(slots=True)
class _Pending:
    """A play waiting for its reveal, or an accepted offer waiting for its outcome."""

    seat: int
    position: int
    trade_with: int | None = None  #: the offerer, for an accepted offer
    sent: bool = False


class HandPlay:
    """One hand as followed by ``seat`` (None: a watcher with no seat at all)."""

    def __init__(self, setup: DealSetup, identities: tuple[bytes, ...], seat: int | None, *,
                 identity: Ed25519PrivateKey | None, entropy: Entropy, now: float,
                 timeout: float) -> None:
        self.setup, self.seat, self.entropy = setup, seat, entropy
        self.public = p = PublicDeal.start(setup.options, setup.dealer, setup.lives,
                                           setup.active)
        schedule = deal_schedule(p.order, p.hand_size, p.pack_size)
        self.config = HandConfig(setup.table_id, setup.hand, p.order,
                                 tuple(identities[s] for s in p.order), p.pack_size, schedule,
                                 timeout)
        self.me = seat if seat is not None and setup.active[seat] else None
        self.fair = Hand(self.config, self.me, identity if self.me is not None else None,
                         entropy if self.me is not None else None, now, checker=self._check)
        self.pack = FULL_PACK if p.pack_size == len(FULL_PACK) else SHORT_PACK
        self.top = len(p.order) * p.hand_size
        self.holdings = {s: set(self.config.positions_of(s)) for s in p.order}
        self.step = 0
        self.since = now  #: when the awaited decision became due
        self.log: list[Logged] = []
        self.commitments: dict[int, bytes] = {}
        self.openings: dict[int, dict[int, tuple[int, bytes]]] = {}
        self.my_offers: dict[int, tuple[int, bytes]] = {}
        self.trades: list[tuple[Card | None, Card | None] | None] = []
        self.outbox: list[Body] = []
        self.applied: list[Applied] = []
        self.full: Deal | None = None
        self.verdict: Blame | None = None
        self._pending: _Pending | None = None
        self._offer_step = -1
        self._top_shared = False
        self._tricks_told = 0
        self._finished = False
        self._mine: Action | None = None
        self._flush()

    # --- what the hand waits for ------------------------------------------------------

    @property
    def dealt(self) -> bool:
        """Every seat's cards are dealt (the protocol is in play or later)."""
        return self.fair.phase in (Phase.PLAY, Phase.AUDIT, Phase.DONE)

    @property
    def audited(self) -> bool:
        """The audit passed: :attr:`full` is the replayed deal."""
        return self.fair.phase is Phase.DONE

    def awaited(self) -> tuple[int, Msg] | None:
        """The seat whose message the hand waits for now, and its kind."""
        pending = self._pending
        if pending is not None:
            return None if pending.trade_with is None else (pending.trade_with, Msg.OUTCOME)
        p = self.public
        if p.is_over or p.to_act is None or p.awaiting is None or not self.dealt:
            return None
        return p.to_act, _MSG_OF[p.awaiting]

    def my_turn(self) -> bool:
        """This seat must decide now."""
        due = self.awaited()
        return due is not None and due[0] == self.seat and due[1] is not Msg.OUTCOME

    def route(self, seat: int, body: Body) -> Route:
        """Whether ``seat``'s next message can be taken now."""
        if body.kind is Msg.PROTO:
            return Route.TAKE
        if body.kind is Msg.NOTES:
            if not (self.public.is_over and self._pending is None):
                return Route.WAIT
            return Route.DROP if seat in self.openings and seat != self.me else Route.TAKE
        if self.public.is_over or body.step < self.step:
            return Route.DROP
        due = self.awaited()
        if due is not None and due[0] == seat and body.step == self.step:
            return Route.TAKE if due[1] is body.kind else Route.DROP
        return Route.WAIT

    # --- taking messages --------------------------------------------------------------

    def take(self, seat: int, body: Body, now: float) -> None:
        """Apply ``seat``'s message (routed TAKE); :class:`Refused` leaves the hand as it was."""
        kind, args = body.kind, body.args
        if kind is Msg.OUTCOME:
            self._take_outcome(seat, body, now)
            return
        if kind in (Msg.PLAY, Msg.ANSWER):
            self._take_position(seat, kind, args, now)
        if kind is Msg.NOTES:
            self._take_notes(seat, args)
        self.feed(seat, body.envelopes, now)
        if kind is Msg.OFFER:
            self._take_offer(seat, args)
        elif kind is Msg.ANSWER and args[0] is None:
            self._decide(seat, Answer(seat, None), lambda: self.public.answer(seat, False),
                         Logged(seat, kind, self.step, (None,)), "declines")
        elif kind in (Msg.SWALLOW, Msg.DECLARE, Msg.CHALLENGE):
            self._take_simple(seat, kind, args)
        self.poll(now)

    def _take_position(self, seat: int, kind: Msg, args: tuple[object, ...], now: float) -> None:
        position = args[0]
        if position is None:
            return
        assert isinstance(position, int)
        if position not in self.holdings.get(seat, set()):
            raise Refused(f"seat {seat} does not hold position {position}")
        if kind is Msg.PLAY:
            self._pending = _Pending(seat, position)
        elif kind is Msg.ANSWER:
            offer = self.public.pending_offer
            assert offer is not None
            self._pending = _Pending(seat, position, trade_with=offer.offerer)
            self.since = now

    def _take_notes(self, seat: int, args: tuple[object, ...]) -> None:
        rows = args[0]
        assert isinstance(rows, list)
        self.openings[seat] = {step: (position, salt) for step, position, salt in rows}

    def _take_offer(self, seat: int, args: tuple[object, ...]) -> None:
        kind, commitment = args
        if (kind is None) != (commitment is None):
            raise Refused("an offer needs both a kind and a commitment")
        assert kind is None or isinstance(kind, str)
        chosen = None if kind is None else Kind(kind)
        text = "makes no offer" if chosen is None else f"offers a {kind}"
        self._offer_step = self.step
        if isinstance(commitment, bytes):
            self.commitments[self.step] = commitment
        self._decide(seat, Offer(seat, None) if chosen is None else None,
                     lambda: self.public.offer(seat, chosen),
                     Logged(seat, Msg.OFFER, self.step, (kind,)), text)

    def _take_simple(self, seat: int, kind: Msg, args: tuple[object, ...]) -> None:
        p, step = self.public, self.step
        if kind is Msg.SWALLOW:
            take = bool(args[0])
            self._decide(seat, Swallow(seat, take), lambda: p.swallow(seat, take),
                         Logged(seat, kind, step, (take,)),
                         "swallows the trick" if take else "leaves the trick to the trump")
        elif kind is Msg.DECLARE:
            out, target = bool(args[0]), args[1]
            assert target is None or isinstance(target, int)
            text = "does not declare" if not out else "declares out" + (
                f", challenging seat {target}" if target is not None else "")
            self._decide(seat, Declare(seat, out, target), lambda: p.declare(seat, out, target),
                         Logged(seat, kind, step, (out, target)), text)
        else:
            aim = args[0]
            assert aim is None or isinstance(aim, int)
            text = "does not challenge" if aim is None else f"challenges seat {aim}"
            self._decide(seat, Challenge(seat, aim), lambda: p.challenge(seat, aim),
                         Logged(seat, kind, step, (aim,)), text)

    def _decide(self, seat: int, shown: Action | None, apply: Callable[[], None],
                entry: Logged, text: str) -> None:
        try:
            apply()
        except RulesError as err:
            raise Refused(str(err)) from None
        self._applied(seat, shown, entry, text)

    def _applied(self, seat: int, shown: Action | None, entry: Logged, text: str) -> None:
        self.log.append(entry)
        self.step += 1
        if seat == self.seat and self._mine is not None:
            shown, self._mine = self._mine, None
        self.applied.append(Applied(seat, shown, f"seat {seat} {text}"))
        self._note_tricks()
        while len(self.trades) < len(self.public.exchanges):
            self.trades.append(self._my_trade(len(self.trades)))

    def feed(self, seat: int, envelopes: tuple[bytes, ...], now: float) -> None:
        """Fair-deal envelopes from ``seat``; unattributable junk is skipped."""
        for data in envelopes:
            try:
                self.fair.receive(seat, data, now)
            except RemoteProtocolError as err:
                if err.attributable:
                    raise
        self.poll(now)

    # --- moving on --------------------------------------------------------------------

    def poll(self, now: float) -> None:
        """Finish what the protocol now allows: a play revealed, a trade's outcome, the
        audit opening; queue the envelopes the protocol produced."""
        self.fair.events()
        if self.fair.phase is Phase.ABORTED:
            return
        pending = self._pending
        if pending is not None and pending.trade_with is None:
            self._finish_play(pending, now)
        elif pending is not None:
            self._trade(pending, now)
        if self.public.is_over and self._pending is None:
            self._open_for_audit(now)
        self._flush()

    def _finish_play(self, pending: _Pending, now: float) -> None:
        revealed = self.fair.record.revealed
        if pending.position not in revealed:
            # In play every deal share is public, so the player's own reveal (with the
            # shares it was handed in exchanges) completes the position at once.
            if self.fair.phase is Phase.PLAY:
                raise Blamed(Blame(pending.seat, "reveal", "played a card without revealing it"))
            return
        card = self.pack[revealed[pending.position]]
        trump = None
        if self.public.turns_trump(card):
            if self.top not in revealed:
                self._share_top(now)
                return
            trump = self.pack[revealed[self.top]]
        try:
            self.public.play(pending.seat, card, trump)
        except RulesError as err:
            raise Blamed(Blame(pending.seat, "play", str(err))) from None
        self._pending = None
        self.holdings[pending.seat].discard(pending.position)
        self._applied(pending.seat, Play(pending.seat, card),
                      Logged(pending.seat, Msg.PLAY, self.step, (pending.position,)),
                      f"plays {card}" + (f" (trump turned: {trump})" if trump else ""))

    def _share_top(self, now: float) -> None:
        if self.me is not None and not self._top_shared:
            self._top_shared = True
            self._flush()
            self.fair.reveal(self.top, now)

    def _note_tricks(self) -> None:
        tricks = self.public.tricks
        while self._tricks_told < len(tricks):
            trick = tricks[self._tricks_told]
            self._tricks_told += 1
            how = "swallows" if trick.swallowed else "takes"
            self.applied.append(Applied(trick.winner, None, f"seat {trick.winner} {how} trick "
                                        f"{self._tricks_told} ({trick.points} points)"))

    def _trade(self, pending: _Pending, now: float) -> None:
        offerer, acceptor = pending.trade_with, pending.seat
        if offerer != self.me or pending.sent or pending.position not in self.fair.cards:
            return
        assert offerer is not None
        mine, _salt = self.my_offers[self._offer_step]
        theirs = self.pack[self.fair.cards[pending.position]]
        void = self.pack[self.fair.cards[mine]].suit == theirs.suit
        pending.sent = True
        self._flush()
        self.fair.transfer(mine, acceptor, now)
        self.outbox.append(self._body(Msg.OUTCOME, (void, mine), self.fair.outgoing()))

    def _take_outcome(self, seat: int, body: Body, now: float) -> None:
        pending = self._pending
        assert pending is not None and pending.trade_with == seat
        void, position = body.args
        if position not in self.holdings[seat]:
            raise Refused(f"seat {seat} does not hold position {position}")
        self.feed(seat, body.envelopes, now)
        if self.fair.phase is Phase.ABORTED:
            return
        acceptor = pending.seat
        try:
            self.public.answer(acceptor, True, bool(void))
        except RulesError as err:
            raise Refused(str(err)) from None
        self._pending = None
        if not void:
            self.holdings[seat].remove(position)
            self.holdings[acceptor].remove(pending.position)
            self.holdings[seat].add(pending.position)
            self.holdings[acceptor].add(position)
        outcome = "void (same suit)" if void else "done"
        self._applied(acceptor, None, Logged(acceptor, Msg.ANSWER, self.step,
                                             (pending.position, position, bool(void))),
                      f"accepts seat {seat}'s offer: exchange {outcome}")
        self.poll(now)

    def _open_for_audit(self, now: float) -> None:
        if self.me is None or self._finished or not self.dealt:
            return
        self._finished = True
        self._flush()
        rows = [[step, position, salt] for step, (position, salt) in self.my_offers.items()]
        self.openings[self.me] = dict(self.my_offers)
        self.fair.finish(now)
        self.outbox.append(Body(Msg.NOTES, self.setup.hand, 0, (rows,),
                                tuple(self.fair.outgoing())))

    def _flush(self) -> None:
        envelopes = self.fair.outgoing()
        for start in range(0, len(envelopes), MAX_ENVELOPES):
            chunk = tuple(envelopes[start:start + MAX_ENVELOPES])
            self.outbox.append(Body(Msg.PROTO, self.setup.hand, 0, (), chunk))

    def _body(self, kind: Msg, args: tuple[object, ...], envelopes: list[bytes]) -> Body:
        return Body(kind, self.setup.hand, self.step, args, tuple(envelopes))

    # --- this seat's own decisions --------------------------------------------------------

    def hand_cards(self) -> tuple[Card, ...]:
        """This seat's current hand, in card-index order."""
        if self.me is None:
            return ()
        cards = [self.pack[self.fair.cards[pos]] for pos in self.holdings[self.me]
                 if pos in self.fair.cards]
        return tuple(sorted(cards, key=lambda card: card.index))

    def view(self) -> PlayerView:
        """What this seat may know now (never another seat's hidden card)."""
        assert self.seat is not None
        view = build_view(self.public, self.seat, self.hand_cards(), (), ())
        exchanges = tuple(
            x if t is None else replace(x, given=t[0], received=t[1])
            for x, t in zip(self.public.exchanges, self.trades, strict=True))
        view = replace(view, exchanges=exchanges)
        return replace(view, legal=tuple(legal_actions_for(view)))

    def act(self, action: Action, now: float) -> Body:
        """The message for this seat's decided ``action`` (checked legal by the caller)."""
        self._flush()
        self._mine = action
        if isinstance(action, Play):
            position = self._position_of(action.card)
            self.fair.reveal(position, now)
            return self._body(Msg.PLAY, (position,), self.fair.outgoing())
        if isinstance(action, Offer):
            return self._offer_body(action)
        if isinstance(action, Answer):
            if action.card is None:
                return self._body(Msg.ANSWER, (None,), [])
            offer = self.public.pending_offer
            assert offer is not None
            position = self._position_of(action.card)
            self.fair.transfer(position, offer.offerer, now)
            return self._body(Msg.ANSWER, (position,), self.fair.outgoing())
        if isinstance(action, Swallow):
            return self._body(Msg.SWALLOW, (action.take,), [])
        if isinstance(action, Declare):
            return self._body(Msg.DECLARE, (action.out, action.challenge), [])
        return self._body(Msg.CHALLENGE, (action.target,), [])

    def _offer_body(self, action: Offer) -> Body:
        if action.card is None or action.card.kind is None:
            return self._body(Msg.OFFER, (None, None), [])
        position = self._position_of(action.card)
        salt = self.entropy(16)
        self.my_offers[self.step] = (position, salt)
        commitment = offer_commitment(self.setup, self.seat or 0, self.step, position, salt)
        return self._body(Msg.OFFER, (action.card.kind.value, commitment), [])

    def _position_of(self, card: Card) -> int:
        assert self.me is not None
        for position in self.holdings[self.me]:
            if self.pack[self.fair.cards[position]] == card:
                return position
        raise RulesError(f"{card} is not in this seat's hand")

    def _my_trade(self, index: int) -> tuple[Card | None, Card | None] | None:
        record = self.public.exchanges[index]
        if self.me is None or self.me not in (record.offerer, record.acceptor):
            return None
        entry = self.log[-1]
        if record.acceptor is None:
            position = self.my_offers[self._offer_step][0]
            return self.pack[self.fair.cards[position]], None
        mine_pos, theirs_pos, _void = entry.args
        given, got = self.pack[self.fair.cards[mine_pos]], self.pack[self.fair.cards[theirs_pos]]
        return (got, given) if self.me == record.offerer else (given, got)

    # --- the audit ----------------------------------------------------------------------

    def _check(self, indices: tuple[int, ...], masked: Mapping[int, int]) -> Blame | None:
        """The fair-deal audit's checker: replay the full deal (see :mod:`.audit`)."""
        deck = tuple(self.pack[i] for i in indices)
        cards = {j: self.pack[i] for j, i in masked.items()}
        transfers = {(s, msg.position, msg.to) for s, _seq, msg in self.fair.record.transfers}
        replay = Replay(self.setup, deck, self.log, commitments=self.commitments,
                        openings=self.openings, transfers=transfers, masked=cards)
        self.verdict = replay.run()
        self.full = replay.deal
        return self.verdict
