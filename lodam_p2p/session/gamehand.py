"""One deal of a game without exchanges (Lorum) at one peer, driven by the game interface.

Theory of operation. The game states the deal (:class:`~lodam_p2p.games.DealPlan`): the
pack, which deck position goes to which seat, the cards set aside face up before the
shuffle (Lorum's ``7S 8S`` with three players: never encrypted, every seat knows them).
The fair-deal protocol shuffles ``len(plan.pack)`` positions and deals them by
``plan.schedule``; card index ``i`` of the protocol is ``plan.pack[i]``.

Every move is a MOVE message: the action's kind and public arguments
(:class:`~lodam_p2p.games.WireAction`) and, when a card travels face up, the deck position
it comes from, with the reveal that proves it (the seat's own share: the deal shares of
the others are public in play). Every peer tracks the public part only
(``public_start``/``public_apply``), so:

- a move is taken in the public turn order (:func:`~.gameroutes.route_message`); when
  the public part names a card instead of a seat (:class:`~lodam_p2p.games.Holder`:
  Lorum's Quartet run, the Red King announcement) any seat may send it, and the reveal
  shows whether it was that card from that seat's own positions. Nobody learns who
  holds the card before it is revealed; a seat holding it sees its own turn in its view;
- a move without a card (a Lorum pass, keeping the red king quiet) reveals nothing; the
  audit checks it;
- a seat that holds the awaited card and stays silent cannot be named by anyone during
  the deal: past the table's time limit every other seat opens its secrets
  (:meth:`GameHand.silence`), and the audit, which sees where the card was, names it;
- a deal dealt face down to everyone (``Game.face_down``: Lorum's blind Red King)
  deals nobody anything in the protocol; on its turn a seat plays, unasked, its next
  position in dealt order with its share, every other seat adds its share, and the
  card is public once all are in: nobody, its owner included, knew it before;
- a deck that carries over (Lorum's short First-and-last, :func:`carries`): the next
  deal reuses the same fair-deal hand, which deals on from the encrypted stack
  (:meth:`Hand.deal_on <lodam_p2p.fairdeal.Hand.deal_on>`); such a deal plays every card
  it dealt, so its check is the replay over the played cards and nobody opens a secret
  (the stack stays closed);
- at the end each seat opens its secrets (NOTES, stamped with the moves it had taken:
  another seat holds them until it has taken as many, :func:`~.gameroutes.route_notes`)
  and the fair-deal audit calls :meth:`GameDeal.check
  <lodam_p2p.session.gamedeal.GameDeal.check>`, which replays the full deal over the
  logged moves (:meth:`Game.replay <lodam_p2p.games.Game.replay>`): the first move the
  rules refuse, or the silent holder, is the verdict — the same at every honest peer.

:class:`GameHand` owns two things: the fair-deal hand (:attr:`GameHand.fair`, fed
and flushed by :class:`~lodam_p2p.session.handbase.HandBase`) and the deal by the
game's rules (:attr:`GameHand.deal`, a :class:`~lodam_p2p.session.gamedeal.GameDeal`:
its public part, holdings, moves and step, and the audit's replay, which the hand
gives the fair-deal hand as its checker). The hand passes the deal what the fair-deal
hand opened (this seat's cards, the revealed positions) and keeps the rest here: the
messages (taking them; where each goes and what it may carry are decided in
:mod:`.gameroutes`, which reads the hand through :class:`~.gameroutes.RoutedHand`), the
move whose card is being revealed, what the hand awaits, this seat's moves, and moving
on. The table machine reads the deal's public part, step and silenced steps through the
hand.

The class is sans-IO: it returns bodies to send (:attr:`outbox`) and never reads a clock.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, Phase
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.games import Game, GameError, GameMatch, Holder, Passage
from lodam_p2p.session.gamedeal import GameDeal, PendingMove, carries
from lodam_p2p.session.gameroutes import route_message, screen_message
from lodam_p2p.session.handbase import HandBase
from lodam_p2p.session.handtypes import Applied, Blamed, Refused, Route
from lodam_p2p.session.movebody import GameMove
from lodam_p2p.session.wire import Body, Msg

__all__ = ["GameHand", "carries"]


class GameHand(HandBase):
    """One deal as followed by ``seat`` (None: a watcher); see the module docstring.
    ``carried``: the last deal's fair-deal hand, when its deck may carry over."""

    def __init__(self, game: Game, match: GameMatch, identities: tuple[bytes, ...],
                 seat: int | None, *, table_id: bytes, hand: int,
                 identity: Ed25519PrivateKey | None, entropy: Entropy, now: float,
                 timeout: float, carried: Hand | None = None) -> None:
        self.game, self.seat, self.me = game, seat, seat
        self.number = hand
        #: the deal by the game's rules: public part, holdings, moves, the audit's replay
        self.deal = deal = GameDeal(game, match, len(identities), seat)
        plan = deal.plan
        schedule = (None,) * len(plan.pack) if deal.blind else plan.schedule
        #: the deck carries over from the last deal (see the module docstring): the same
        #: fair-deal hand deals on; its context stays the hand number of its first deal
        self.carried = carried is not None and not plan.fresh and carries(plan)
        if self.carried:
            assert carried is not None
            self.fair = carried
            self.fair.check_with(deal.check)
            self.fair.deal_on(schedule, now)
        else:
            config = HandConfig(table_id, hand, deal.order,
                                tuple(identities[s] for s in deal.order), len(plan.pack),
                                schedule, timeout)
            self.fair = Hand(config, seat, identity if seat is not None else None,
                             entropy if seat is not None else None, now,
                             checker=deal.check, lazy=seat is None)
        self.config = self.fair.config
        #: a short deal of a deck that may carry on: every card it deals is played, and
        #: its check is the replay over them, with no secret opened (see ``_played_check``)
        self.short = carries(plan)
        self._played_ok = False  #: the replay over the played cards passed
        self.since = now  #: when the current step began
        self.outbox: list[Body] = []
        self.applied: list[Applied] = []
        self.stalled = False  #: this seat gave up waiting for a silent holder
        self.last_fed: dict[int, tuple[bytes, ...]] = {}
        #: the move whose card is being revealed
        self.pending: PendingMove | None = None
        self._mine: Any = None
        self._finished = False
        self._blind_sent = -1  #: the step this seat last sent its blind play for
        self.flush()

    # --- the deal's state, as the table machine reads it --------------------------------

    @property
    def public(self) -> Any:
        """The game's public part of the deal, the same at every peer."""
        return self.deal.public

    @property
    def step(self) -> int:
        """The number of moves taken in the deal so far."""
        return self.deal.step

    @property
    def silenced(self) -> AbstractSet[int]:
        """The steps at which the table agreed that an awaited card's holder was silent."""
        return self.deal.silenced

    @property
    def holdings(self) -> dict[int, set[int]]:
        """The deck positions each seat still holds (the deal's)."""
        return self.deal.holdings

    @property
    def full(self) -> Any:
        """The full deal replayed by the audit (None before the audit)."""
        return self.deal.full

    @property
    def verdict(self) -> Blame | None:
        """The audit's finding against a seat, if it found one."""
        return self.deal.verdict

    @property
    def hand_no(self) -> int:
        """The session's hand number (a carried deck's context is its first deal's)."""
        return self.number

    @property
    def audited(self) -> bool:
        """The audit passed (for a short deal: the replay over its played cards)."""
        return self._played_ok or self.fair.phase is Phase.DONE

    # --- what the hand waits for ------------------------------------------------------

    def holder_turn(self) -> Holder | None:
        """The card whose holder is awaited, when the public part names no seat."""
        if self.public.is_over or not self.dealt or self.pending is not None:
            return None
        turn = self.deal.turn()
        return turn if isinstance(turn, Holder) else None

    def awaited(self) -> tuple[int, Msg] | None:
        """The seat whose move the hand waits for now (None: nobody known to all, or
        this seat when it holds the card the public part awaits)."""
        if (self.pending is not None or self.public.is_over or self.stalled
                or self.fair.phase is not Phase.PLAY):
            return None
        turn = self.deal.turn()
        if isinstance(turn, Holder):
            return (self.me, Msg.MOVE) if self.me is not None and (
                turn.card in self.hand_cards()) else None
        return None if turn is None else (turn, Msg.MOVE)

    def my_turn(self) -> bool:
        """This seat must decide now (never in a blind deal: its next card is played)."""
        due = self.awaited()
        return due is not None and due[0] == self.seat and not self.deal.blind

    def hand_cards(self) -> tuple[Any, ...]:
        """This seat's current hand, in pack order."""
        return self.deal.hand_cards(self.fair.cards)

    def view(self) -> Any:
        """What this seat may know now: the public part and its own hand."""
        return self.deal.view(self.fair.cards)

    # --- routing messages (:mod:`.gameroutes`) ----------------------------------------

    def route(self, seat: int, body: Body) -> Route:
        """Whether ``seat``'s next message can be taken now
        (:func:`.gameroutes.route_message`)."""
        return route_message(self, seat, body)

    def screen(self, seat: int, body: Body) -> None:
        """Refuse an audit opening outside NOTES, and a reveal outside the seat's move
        (:func:`.gameroutes.screen_message`)."""
        screen_message(self, seat, body)

    # --- taking messages --------------------------------------------------------------

    def take(self, seat: int, body: Body, now: float) -> None:
        """Apply ``seat``'s message (routed TAKE); :class:`Refused` leaves the hand as it was."""
        if body.kind is Msg.MOVE:
            self._take_move(seat, GameMove.read(body), body.envelopes, now)
            return
        if body.kind is Msg.NOTES:
            self.deal.opened_at.setdefault(seat, min(body.step, self.step))
        self.feed(seat, body.envelopes, now)

    def _take_move(self, seat: int, move: GameMove, envelopes: tuple[bytes, ...],
                   now: float) -> None:
        kind, args, position = move.kind, move.values, move.position
        if position is None:
            if envelopes:
                raise Refused("a move without a card carries no envelopes")
            action = self.deal.decode(seat, kind, args, None)
            self.deal.apply(seat, action, refuse=True)
            self._told(seat, action)
            self.poll(now)
            return
        if position not in self.deal.holdings.get(seat, set()):
            raise Refused(f"seat {seat} does not hold position {position}")
        if self.deal.blind and position != self.deal.next_position(seat):
            raise Blamed(Blame(seat, "blind-order", f"played position {position}, not its "
                               "next one in dealt order"))
        self.pending = PendingMove(seat, kind, args, position)
        self.since = now
        self.feed(seat, envelopes, now)
        if self.deal.blind:
            self._share(position, now)
            self.poll(now)  # this seat's share may have been the last one

    def _share(self, position: int, now: float) -> None:
        """Blind: this seat's share of the position being played (once)."""
        if self.me is None or self.me in self.fair.record.shares.get(position, {}):
            return
        if position in self.fair.record.revealed or self.fair.phase is not Phase.PLAY:
            return
        self.flush()
        self.fair.reveal(position, now)
        self.flush()

    def act(self, action: Any, now: float) -> Body:
        """The MOVE for this seat's decided ``action`` (checked legal by the caller)."""
        self.flush()
        self._mine = action
        wire = self.game.encode_action(action)
        if wire.card is None:
            return self._body(Msg.MOVE, GameMove(wire.kind, wire.args).args(), [])
        if wire.passage is not Passage.FACE_UP:
            raise GameError(f"a card passed {wire.passage} is not played at this table")
        position = self.deal.position_of(self.fair.cards, wire.card)
        if position not in self.fair.record.revealed:
            self.fair.reveal(position, now)
        return self._body(Msg.MOVE, GameMove(wire.kind, wire.args, position).args(),
                          self.fair.outgoing())

    # --- moving on --------------------------------------------------------------------

    def poll(self, now: float) -> None:
        """Finish a move whose card is revealed; open the secrets when the deal is over
        (or a silent holder is looked for); queue what the protocol produced."""
        self.fair.events()
        if self.fair.phase is Phase.ABORTED:
            return
        if self.pending is not None:
            self._finish_move(self.pending)
        self._play_blind(now)
        if self.pending is None and (self.public.is_over or self.stalled
                                      or self.fair.phase is Phase.AUDIT):
            if self.short and self.public.is_over and self.fair.phase is Phase.PLAY \
                    and self.deal.all_played(self.fair.record.revealed):
                self._played_check()
            else:
                self._open_for_audit(now)
        self.flush()

    def _played_check(self) -> None:
        """A short deal of a deck that carries on: every card it dealt is public, so the
        replay needs no secret; the deck's other positions stay closed for the next
        deal. The shuffles and every share were proven as they came in."""
        if self._played_ok or self.verdict is not None:
            return
        verdict = self.deal.check(self.deal.played_deck(self.fair.record.revealed), {})
        if verdict is not None:
            raise Blamed(verdict)
        self._played_ok = True

    def _play_blind(self, now: float) -> None:
        """Blind: on this seat's turn, play its next position (no choice, nobody asked)."""
        due = self.awaited()
        if (not self.deal.blind or due is None or due[0] != self.me
                or self._blind_sent == self.step):
            return
        position = self.deal.next_position(self.me)
        if position is None:
            return
        self._blind_sent = self.step
        self.flush()
        self.fair.reveal(position, now)
        self.outbox.append(self._body(Msg.MOVE, GameMove("play", (), position).args(),
                                      self.fair.outgoing()))

    def silence(self, step: int, now: float) -> None:
        """The table agreed that the holder awaited at ``step`` is silent (every seat but
        one voted so, :mod:`.clocks`): at that step, open this seat's secrets so that
        the audit names the holder."""
        self.deal.silenced.add(step)
        if step != self.step or self.holder_turn() is None or self.me is None:
            return
        self.stalled = True
        self.poll(now)

    def _finish_move(self, pending: PendingMove) -> None:
        revealed = self.fair.record.revealed
        if pending.position not in revealed:
            if self.fair.phase is Phase.PLAY and not self.deal.blind:
                raise Blamed(Blame(pending.seat, "reveal", "moved a card without revealing it"))
            return
        action = self.deal.played(pending, self.deal.plan.pack[revealed[pending.position]])
        self._told(pending.seat, action)
        self.pending = None

    def _told(self, seat: int, action: Any) -> None:
        """Tell the player the move just applied: this seat's own as it decided it."""
        shown = self.game.public_action(action)
        if seat == self.seat and self._mine is not None:
            shown, self._mine = self._mine, None
        self.applied.append(Applied(seat, shown, f"seat {seat}: {action}"))

    def _open_for_audit(self, now: float) -> None:
        if self.me is None or self._finished or not self.dealt:
            return
        self._finished = True
        self.deal.opened_at.setdefault(self.me, self.step)
        self.flush()
        self.fair.finish(now)
        self.outbox.append(Body(Msg.NOTES, self.number, self.step, ([],),
                                tuple(self.fair.outgoing())))

