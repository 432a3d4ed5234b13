"""One hand at one peer: the public deal, the fair-deal protocol, and the glue between.

Theory of operation. The hand is one of a game whose actions pass cards face down
between seats (:attr:`Game.exchanges <lodam_p2p.games.Game.exchanges>`: Lodam), reached
through the game interface only. RULES.md 4 deals ``deck[k], deck[k+m], …`` to the k-th
active seat from the eldest and leaves ``deck[m·h:]`` as the talon. The fair-deal
protocol deals *positions* of a jointly shuffled deck, so the deck order *is* the
position order: the schedule, the pack and the talon's top are the game's deal plan
(:meth:`Game.deal_plan <lodam_p2p.games.Game.deal_plan>`: ``plan.schedule``,
``plan.pack`` — card index ``i`` of the protocol is ``plan.pack[i]`` — and
``plan.turnable``), the one statement of the deal that every table of every game reads.

Everything else is public bookkeeping that every peer does alike:

- *holdings*: which positions each seat holds. A card played names its position and the
  player reveals it; a position a seat does not hold is refused before anything is fed
  to the protocol.
- *the trump*: when a revealed card turns out to be the first renounce
  (:meth:`HiddenExchange.turns_up <lodam_p2p.games.HiddenExchange.turns_up>`), every
  seat of the hand publishes its share of the talon's top; the play counts once it is
  public.
- *exchanges* (:mod:`.trading`): an offer, an answer with its transfer, the offerer's
  outcome with its transfer (each a new position, held by the receiver), and then both
  traders re-mask their whole holding into fresh positions, so that nothing published
  later names a traded card's provenance.
- *the audit*: when the deal is over each seat opens its offer commitments beside its
  fair-deal opening; the protocol's audit then calls :meth:`HandPlay._check`, which
  opens the offers (:mod:`.audit`) and has the game replay the full deal
  (:meth:`HiddenExchange.audit <lodam_p2p.games.HiddenExchange.audit>`).

The hand owns two parts: :class:`~lodam_p2p.session.trading.Trading` (offers, outcomes,
re-masks) and :class:`~lodam_p2p.session.moves.OwnMoves` (this seat's own decisions).
Actions are taken in the public deal's
turn order only (:meth:`HandPlay.route`), whatever order the network delivers them in.
The class is sans-IO: it returns bodies to send (:attr:`outbox`) and never reads a clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, Phase
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.games import (
    Game,
    GameError,
    GameMatch,
    LoggedMove,
    Passage,
    PublicMove,
    WireAction,
)
from lodam_p2p.session.audit import opened_offers
from lodam_p2p.session.handbase import HandBase
from lodam_p2p.session.handtypes import Applied, Blamed, Pending, Refused, Route
from lodam_p2p.session.movebody import DECISIONS, BadMove, ExchangeMove, Tag
from lodam_p2p.session.moves import TAG_OF, OwnMoves
from lodam_p2p.session.trading import Trading
from lodam_p2p.session.wire import Body, Msg

__all__ = ["Applied", "Blamed", "HandPlay", "Refused", "Route"]


class HandPlay(HandBase):
    """One hand as followed by ``seat`` (None: a watcher with no seat at all)."""

    #: every Lodam deal is fresh and audited in full: no deck carries over
    short = False
    #: a Lodam turn always names a seat, so no card's holder is ever found silent
    silenced: frozenset[int] = frozenset()

    def __init__(self, game: Game, match: GameMatch, identities: tuple[bytes, ...],
                 seat: int | None, *, table_id: bytes, hand: int,
                 identity: Ed25519PrivateKey | None, entropy: Entropy, now: float,
                 timeout: float) -> None:
        if game.exchanges is None:
            raise GameError(f"{game.title} has no hidden exchanges: its hand is a GameHand")
        self.game, self.match, self.exchanges = game, match, game.exchanges
        self.table_id, self.number = table_id, hand
        self.seat, self.entropy = seat, entropy
        plan = game.deal_plan(match)
        self.public: Any = game.public_start(match)
        #: the seats dealt in, eldest first: the order the plan first deals to them
        self.order = tuple(dict.fromkeys(s for s in plan.schedule if s is not None))
        self.config = HandConfig(table_id, hand, self.order,
                                 tuple(identities[s] for s in self.order), len(plan.pack),
                                 plan.schedule, timeout)
        self.me = seat if seat in self.order else None
        self.fair = Hand(self.config, self.me, identity if self.me is not None else None,
                         entropy if self.me is not None else None, now, checker=self._check,
                         lazy=self.me is None)
        self.pack: tuple[Any, ...] = tuple(plan.pack)
        self.top = plan.turnable[0]
        self.holdings = {s: set(self.config.positions_of(s)) for s in self.order}
        self.step = 0
        self.since = now  #: when the awaited decision became due
        self.log: list[LoggedMove] = []
        self.openings: dict[int, dict[int, tuple[int, bytes]]] = {}
        self.outbox: list[Body] = []
        self.applied: list[Applied] = []
        self.full: Any = None
        self.verdict: Blame | None = None
        #: a play waiting for its reveal, or an accepted offer waiting for its outcome
        self.pending: Pending | None = None
        self._top_shared = False
        self._tricks_told = 0
        self._finished = False
        #: each seat's envelopes last fed: the evidence a VOID carries against it
        self.last_fed: dict[int, tuple[bytes, ...]] = {}
        self.trading = Trading(self)
        self.own = OwnMoves(self)
        self.flush()

    # --- what the hand waits for ------------------------------------------------------

    def awaited(self) -> tuple[int, Tag] | None:
        """The seat whose move the hand waits for now, and the move's tag."""
        pending = self.pending
        if pending is not None:
            return None if pending.trade_with is None else (pending.trade_with, Tag.OUTCOME)
        kind = self.exchanges.awaiting(self.public)
        to_act = self.game.turn(self.public)
        if kind is None or not isinstance(to_act, int) or not self.dealt:
            trader = self.trading.remasking()
            return None if trader is None else (trader, Tag.REMASK)
        if self.trading.remask_due(to_act):
            return to_act, Tag.REMASK
        return to_act, TAG_OF[kind]

    def holder_turn(self) -> None:
        """Never a card's holder awaited: a Lodam turn names a seat."""
        return None

    def silence(self, step: int, now: float) -> None:
        """Nothing to do: no Lodam step awaits a card's holder (:meth:`holder_turn`)."""

    def my_turn(self) -> bool:
        """This seat must decide now."""
        due = self.awaited()
        return due is not None and due[0] == self.seat and due[1] in DECISIONS

    def route(self, seat: int, body: Body) -> Route:
        """Whether ``seat``'s next message can be taken now (a MOVE that does not read
        is taken at once, to be refused with its reason)."""
        if body.kind is Msg.PROTO:
            return Route.TAKE
        if body.kind is Msg.NOTES:
            if not (self.public.is_over and self.pending is None):
                return Route.WAIT
            return Route.DROP if seat in self.openings and seat != self.me else Route.TAKE
        if body.kind is not Msg.MOVE:
            return Route.DROP
        try:
            tag = ExchangeMove.read(body).tag
        except BadMove:
            return Route.TAKE
        if tag is Tag.REMASK:
            if body.step != self.step:
                return Route.DROP if body.step < self.step else Route.WAIT
            if not self.trading.remask_due(seat):
                return Route.DROP
            return Route.TAKE if self.awaited() == (seat, Tag.REMASK) else Route.WAIT
        if self.public.is_over or body.step < self.step:
            return Route.DROP
        due = self.awaited()
        if due is not None and due[0] == seat and body.step == self.step:
            return Route.TAKE if due[1] is tag else Route.DROP
        return Route.WAIT

    # --- taking messages --------------------------------------------------------------

    def take(self, seat: int, body: Body, now: float) -> None:
        """Apply ``seat``'s message (routed TAKE); :class:`Refused` leaves the hand as it was."""
        if body.kind is not Msg.MOVE:
            if body.kind is Msg.NOTES:
                self._take_notes(seat, body.args)
            self.feed(seat, body.envelopes, now)
            self.poll(now)
            return
        move = ExchangeMove.read(body)
        tag, args = move.tag, move.fields
        if tag is Tag.OUTCOME:
            self.trading.take_outcome(seat, args, body.envelopes, now)
            return
        if tag is Tag.REMASK:
            self.trading.screen_remask(seat, body.envelopes)
            self.feed(seat, body.envelopes, now)
            return
        if tag in (Tag.PLAY, Tag.ANSWER):
            self._take_position(seat, tag, args, now)
        self.feed(seat, body.envelopes, now)
        if tag is Tag.ANSWER and isinstance(args[0], int) and self.fair.phase is Phase.PLAY:
            offerer = self.exchanges.offerer(self.public)
            assert offerer is not None
            self.trading.handed(seat, args[0], offerer)
        if tag is Tag.OFFER:
            self.trading.take_offer(seat, args)
        elif tag is Tag.ANSWER and args[0] is None:
            self.decide(PublicMove(seat, WireAction("answer")),
                         LoggedMove(seat, "answer", self.step, (None,)))
        elif tag in (Tag.SWALLOW, Tag.DECLARE, Tag.CHALLENGE):
            self._take_simple(seat, tag, args)
        self.poll(now)

    def _take_position(self, seat: int, tag: Tag, args: tuple[object, ...], now: float) -> None:
        position = args[0]
        if position is None:
            return
        assert isinstance(position, int)
        if position not in self.holdings.get(seat, set()):
            raise Refused(f"seat {seat} does not hold position {position}")
        if tag is Tag.PLAY:
            self.pending = Pending(seat, position)
        elif tag is Tag.ANSWER:
            offerer = self.exchanges.offerer(self.public)
            assert offerer is not None
            self.pending = Pending(seat, position, trade_with=offerer)
            self.since = now

    def _take_notes(self, seat: int, args: tuple[object, ...]) -> None:
        rows = args[0]
        assert isinstance(rows, list)
        self.openings[seat] = {step: (position, salt) for step, position, salt in rows}

    def _take_simple(self, seat: int, tag: Tag, args: tuple[object, ...]) -> None:
        """A move without a card (swallow, declare, challenge): its fields."""
        values = tuple(a for a in args if a is None or isinstance(a, bool | int | str))
        self.decide(PublicMove(seat, WireAction(tag.value, values)),
                    LoggedMove(seat, tag.value, self.step, values))

    def decide(self, move: PublicMove, entry: LoggedMove) -> None:
        """Apply a public decision to the deal; :class:`Refused` if the rules refuse it."""
        try:
            self.game.public_apply(self.public, move)
        except (self.game.illegal_action, ValueError) as err:
            raise Refused(self.game.refusal_reason(err)) from None
        self.note_applied(move, entry)

    def note_applied(self, move: PublicMove, entry: LoggedMove) -> None:
        """A public decision applied to the deal: log it, step on, tell what it showed."""
        self.log.append(entry)
        self.step += 1
        shown = self._shown(move)
        own = self.own
        if move.seat == self.seat and own.mine is not None:
            shown, own.mine = own.mine, None
        self.applied.append(Applied(move.seat, shown,
                                    self.exchanges.move_text(self.public, move)))
        self._note_tricks()
        own.note_trades(self.exchanges.exchanges_made(self.public))

    def _shown(self, move: PublicMove) -> Any:
        """What the other seats see of ``move``: the game's action, None if it hid a card."""
        wire = move.wire
        if wire.passage is not None and wire.passage is not Passage.FACE_UP:
            return None
        try:
            return self.game.public_action(self.game.decode_action(move.seat, wire))
        except GameError:
            return None

    def screen(self, seat: int, body: Body) -> None:
        """Refuse an audit opening anywhere but in the seat's NOTES at the deal's end,
        and a reveal but of the card played or the talon's top
        (:meth:`~.handbase.HandBase.screen_envelopes`)."""
        move = ExchangeMove.read(body) if body.kind is Msg.MOVE else None
        self.screen_envelopes(seat, body, lambda position: self._reveal_due(move, position),
                              "outside its play and the talon's turn")

    def _reveal_due(self, move: ExchangeMove | None, position: int) -> bool:
        """A seat reveals only the position it plays, and its share of the talon's top."""
        if move is not None and move.tag is Tag.PLAY:
            return bool(move.fields[0] == position)
        return position == self.top

    # --- this seat's own moves (:class:`OwnMoves`) ---------------------------------------

    def hand_cards(self) -> tuple[Any, ...]:
        """This seat's current hand, in pack order."""
        return self.own.hand_cards()

    def view(self) -> Any:
        """What this seat may know now (never another seat's hidden card)."""
        return self.own.view()

    def act(self, action: Any, now: float) -> Body:
        """The message for this seat's decided ``action`` (checked legal by the caller)."""
        return self.own.act(action, now)

    def remasking(self) -> int | None:
        """The trader whose re-mask is awaited (the lower one while both are), or None."""
        return self.trading.remasking()

    def move_body(self, tag: Tag, fields: tuple[object, ...], envelopes: list[bytes]) -> Body:
        """The MOVE body of this seat's move ``tag`` at the current step."""
        return self._body(Msg.MOVE, ExchangeMove(tag, fields).args(), envelopes)

    # --- moving on --------------------------------------------------------------------

    def poll(self, now: float) -> None:
        """Finish what the protocol now allows: a play revealed, a trade's outcome, the
        re-masks after it, the audit opening; queue the envelopes the protocol produced."""
        events = self.fair.events()
        if self.fair.phase is Phase.ABORTED:
            return
        self.trading.follow_remasks(events)
        pending = self.pending
        if pending is not None and pending.trade_with is None:
            self._finish_play(pending, now)
        elif pending is not None:
            self.trading.trade(pending, now)
        self.trading.remask_mine(now)
        if self.public.is_over and self.pending is None and not self.trading.due:
            self._open_for_audit(now)
        self.flush()

    def _finish_play(self, pending: Pending, now: float) -> None:
        revealed = self.fair.record.revealed
        if pending.position not in revealed:
            # In play every deal share is public and every other card is held under its
            # holder's key alone, so the player's own reveal completes it at once.
            if self.fair.phase is Phase.PLAY:
                raise Blamed(Blame(pending.seat, "reveal", "played a card without revealing it"))
            return
        card = self.pack[revealed[pending.position]]
        trump = None
        if self.exchanges.turns_up(self.public, card):
            if self.top not in revealed:
                self._share_top(now)
                return
            trump = self.pack[revealed[self.top]]
        move = PublicMove(pending.seat, WireAction("play", (), card, Passage.FACE_UP), trump)
        try:
            self.game.public_apply(self.public, move)
        except (self.game.illegal_action, ValueError) as err:
            raise Blamed(Blame(pending.seat, "play", self.game.refusal_reason(err))) from None
        self.pending = None
        self.holdings[pending.seat].discard(pending.position)
        self.note_applied(move, LoggedMove(pending.seat, "play", self.step, (pending.position,)))

    def _share_top(self, now: float) -> None:
        if self.me is not None and not self._top_shared:
            self._top_shared = True
            self.flush()
            self.fair.reveal(self.top, now)

    def _note_tricks(self) -> None:
        for seat, text in self.exchanges.news(self.public, self._tricks_told):
            self._tricks_told += 1
            self.applied.append(Applied(seat, None, text))

    def _open_for_audit(self, now: float) -> None:
        if self.me is None or self._finished or not self.dealt:
            return
        self._finished = True
        self.flush()
        my_offers = self.own.my_offers
        rows = [[step, position, salt] for step, (position, salt) in my_offers.items()]
        self.openings[self.me] = dict(my_offers)
        self.fair.finish(now)
        self.outbox.append(Body(Msg.NOTES, self.number, 0, (rows,),
                                tuple(self.fair.outgoing())))

    # --- the audit ----------------------------------------------------------------------

    def _check(self, indices: tuple[int, ...], masked: Mapping[int, int]) -> Blame | None:
        """The fair-deal audit's checker: open the offers, and have the game replay the
        full deal over the log (see :mod:`.audit`)."""
        deck = tuple(self.pack[i] for i in indices)
        cards = {j: self.pack[i] for j, i in masked.items()}
        transfers = frozenset((h.seat, h.position, h.to) for h in self.fair.record.transfers)
        offers = opened_offers(self.table_id, self.number, self.log,
                               self.trading.commitments, self.openings)
        replayed = self.exchanges.audit(self.match, deck, masked=cards, log=self.log,
                                        offers=offers, transfers=transfers)
        self.full = replayed.deal
        error = replayed.error
        self.verdict = None if error is None else Blame(error.seat, error.offence,
                                                        error.message)
        return self.verdict
