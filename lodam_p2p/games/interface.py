"""The game interface: everything a table asks of a card game, and nothing more.

What a game must state
----------------------
A :class:`Game` is one value per game (``lodam``, ``lorum`` …), found by name through the
``lodam_p2p.games`` entry-point group (:mod:`lodam_p2p.games.registry`). It states, once
and for every layer above it:

- its **name**, title, a short rules text, the **seat range** a table may start with, and
  its **options** (parsed from ``k=v`` texts or a JSON mapping, listed as help rows);
- for the next deal of a match, the **pack** (the cards in canonical order: card number
  ``i`` of the fair-deal protocol is ``pack[i]``) and the **deal plan**: which deck
  position goes to which seat, which positions stay in the talon (and which of those the
  deal may turn face up), which cards are set aside face up before the shuffle;
- the **match**: start it, make the next deal from a deck, settle a finished deal, and
  say who stands where (winners, ranks, a score per seat);
- the **deal** itself, stepped by everyone the same way — ``to_act``, ``legal_actions()``,
  ``apply(action)``, ``view(seat)``, ``is_over`` — and its **public part**, the state a
  seat tracks from announced moves alone and checks without seeing a hidden card: it
  starts from the match (``public_start``) and is advanced by each :class:`PublicMove`
  (``public_apply``), the step as every seat saw it (``step`` makes one from the full
  deal); ``hidden_cards`` says what a seat may not know, so that views can be checked;
- the **action codec** (:class:`WireAction`): an action as a kind, plain public arguments
  and at most one card, with how that card travels (face up to all, to one seat, face
  down); the session sends the card as a deck position and the rest as it is;
- the **audit replay**: the full deal replayed from the opened deck over the logged
  actions, naming the first action the rules refuse and its seat.

Hidden turn order
-----------------
In Lodam the public part always knows whose turn it is. In Lorum's Quartet it does not:
the next card of the run must be played by whoever holds it, and nobody but the holder
knows who that is. The public part then says ``Holder(card)`` — "the holder of this card
acts" — rather than a seat (:data:`Turn`). Every seat can still check that step: the card
that is then revealed must be that very card, and the seat that reveals it is its holder.
A seat that holds the card and stays silent cannot be caught at once, but is caught at
the audit, when the opened deck shows where the card was. So a public step may name a
card instead of a seat without any seat learning more than the table does.

How session and fair deal use the deal plan
-------------------------------------------
The fair-deal protocol knows no card game: it shuffles ``len(plan.pack)`` encrypted
positions and deals position ``j`` to ``plan.schedule[j]`` (``None`` keeps it in the talon).
Set-aside cards are not shuffled at all; every seat knows them. A plan that is not
``fresh`` shuffles nothing: the previous deal's encrypted deck carries over and the deal
deals on from it (Lorum's short First-and-last), ``spent`` naming the positions earlier
deals took. Whether the next deal reshuffles is :meth:`Game.reshuffles`, asked after
a deal is settled; a table whose deck carries over must keep that deck's secrets (the
stack's cards) closed at the deal's audit until the deck's last deal, or re-mask the
stack first. Talon positions in
``plan.turnable`` may be revealed to all during the deal (Lodam's trump card). The
session reads the plan from the game instead of re-deriving a round-robin of its own,
so a game's schedule is written once, here, by the game: its hand machine builds the
fair-deal schedule from ``plan.schedule``, its card index table from ``plan.pack``,
the talon top it reveals from ``plan.turnable``, and the audit replays the logged moves
through :meth:`Game.replay` against the opened deck.

Hidden exchanges
----------------
Lodam's exchanges pass cards face down between two seats: an offer puts a card down
unseen (committed to, :attr:`Passage.FACE_DOWN`), an accepting answer hands one to the
offerer alone (:attr:`Passage.TO_ONE`), and the offerer then hands its own over and
announces whether the exchange was void. A game with such actions states them in
:attr:`Game.exchanges` (a :class:`HiddenExchange`; ``None`` for a game without, such as
Lorum): what the public part awaits, who trades with whom, when an exchange is void
(the two cards then stay where they were; otherwise the two positions swap holders),
what each seat may know of the exchanges it took part in, and how the audit replays a
deal over the table's log of :class:`~lodam_p2p.games.kit.values.LoggedMove` — positions,
the opened offer positions and the transfers the fair deal recorded — naming the first
seat whose move, card or announcement the opened deck contradicts. The table keeps the
cryptography (commitments, transfers, re-masks); the game judges the cards.

The interface is a small ABC, not a framework: the match, deal, view, action and
options objects stay each game's own; what every layer may read of them
(:class:`GameDeal`, :class:`GameMatch`, :class:`SeatView`) and the plain values every
layer shares live in the kit (:mod:`lodam_p2p.games.kit.deals`,
:mod:`lodam_p2p.games.kit.values`).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Mapping, Sequence
from typing import Generic

from lodam_p2p.games.kit.deals import GameDeal, GameMatch
from lodam_p2p.games.kit.params import ActionT, DealT, OptionsT, PublicT, ViewT
from lodam_p2p.games.kit.state import DealCodes
from lodam_p2p.games.kit.values import (
    ActionCodecError,
    Card,
    DealPlan,
    DealSummary,
    GameError,
    JsonObject,
    LoggedMove,
    OptionRow,
    PublicMove,
    Replayed,
    SeatRange,
    Standings,
    Turn,
    WireAction,
)


class HiddenExchange(abc.ABC, Generic[PublicT, ViewT]):
    """What a table asks of a game whose actions pass cards face down between seats
    (see "Hidden exchanges" in the module docstring). ``public`` is the game's public
    part (``PublicT``), a view its seat view (``ViewT``); cards are the game's own."""

    @abc.abstractmethod
    def awaiting(self, public: PublicT) -> str | None:
        """The wire kind of the move the public part awaits now (None: none)."""

    @abc.abstractmethod
    def offerer(self, public: PublicT) -> int | None:
        """The seat whose face-down card waits for an answer (None: no offer is open)."""

    @abc.abstractmethod
    def exchanges_made(self, public: PublicT) -> int:
        """How many exchanges the deal has settled (accepted or not)."""

    @abc.abstractmethod
    def traders(self, public: PublicT, index: int) -> tuple[int, int | None]:
        """The offerer of exchange ``index`` and its acceptor (None: nobody accepted)."""

    @abc.abstractmethod
    def void(self, offered: Card, answered: Card) -> bool:
        """Whether an exchange of these two cards is void (both stay where they were)."""

    @abc.abstractmethod
    def turns_up(self, public: PublicT, card: Card) -> bool:
        """Whether playing ``card`` now turns the plan's turnable talon card face up."""

    @abc.abstractmethod
    def news(self, public: PublicT, told: int) -> list[tuple[int, str]]:
        """What the rules did on their own since ``told`` such events (a trick taken):
        per event, the seat it concerns and a sentence."""

    @abc.abstractmethod
    def move_text(self, public: PublicT, move: PublicMove) -> str:
        """A sentence about ``move``, once applied to ``public``, that tells no hidden card."""

    @abc.abstractmethod
    def seat_view(self, public: PublicT, seat: int, hand: Sequence[Card],
                  trades: Sequence[tuple[Card | None, Card | None] | None]) -> ViewT:
        """The view of ``seat`` from the public part, its ``hand`` and, per exchange so
        far, the cards it gave and received (None: it took no part); with its legal
        actions when the step is its own."""

    @abc.abstractmethod
    def audit(self, match: GameMatch, deck: Sequence[Card], *, masked: Mapping[int, Card],
              log: Sequence[LoggedMove], offers: Mapping[int, int | str],
              transfers: frozenset[tuple[int, int, int]]) -> Replayed:
        """Replay the match's next deal from the opened ``deck`` over the table's ``log``.

        ``masked``: the cards under the positions re-masks made; ``offers``: per step of
        a face-down offer, the position it put down as its commitment opened, or why the
        opening failed; ``transfers``: every (sender, position, receiver) the fair deal
        recorded. The error names the first offence and the seat it proves guilty."""


class Game(abc.ABC, Generic[OptionsT, DealT, ActionT, ViewT, PublicT]):
    """One game behind the interface (see the module docstring); subclass and state it.

    Matches, deals, views, actions, options and cards are the game's own values; the
    methods below are all a table, an arena, a bot host or a client shell may call. A
    game names its own types: ``Game[Options, Deal, Action, PlayerView, PublicDeal]``
    (its options value, its deal, its action, its seat view, its public part); a caller
    that found a game by name (:func:`~lodam_p2p.games.get_game`) holds any game.
    """

    #: Name on the command line and in entry points (``lodam``).
    name: str
    #: Name for people (``Losing Lodam``).
    title: str
    #: Seats a table may start with.
    seats: SeatRange
    #: The type of the game's options value (frozen, picklable, compared by value).
    options_type: type
    #: The exception the engine raises for a refused action (has ``seat`` and ``reason``).
    illegal_action: type[Exception]
    #: How the game's actions pass cards face down between seats (None: they never do).
    exchanges: HiddenExchange[PublicT, ViewT] | None = None
    #: The game's actions as numbers for the kit's state API (:mod:`lodam_p2p.games.kit`;
    #: None: the game has none).
    state_codes: DealCodes[DealT, ActionT, ViewT] | None = None
    #: Whether a seat proven at fault leaves the match (:meth:`put_out`, Lodam) rather
    #: than paying for a void deal and playing on (:meth:`breach`, Lorum).
    puts_out: bool = False

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}>"

    # -- options ------------------------------------------------------------------------

    @abc.abstractmethod
    def default_options(self) -> OptionsT:
        """The options of a table that names none."""

    @abc.abstractmethod
    def parse_options(self, assignments: Iterable[str]) -> OptionsT:
        """Options from ``["k=v", …]`` texts; ``ValueError`` naming the bad one."""

    @abc.abstractmethod
    def options_from_mapping(self, values: Mapping[str, object]) -> OptionsT:
        """Options from a JSON object; ``ValueError`` naming the bad one."""

    @abc.abstractmethod
    def options_to_mapping(self, options: OptionsT) -> dict[str, object]:
        """The JSON form of ``options`` (``options_from_mapping`` reads it back)."""

    @abc.abstractmethod
    def option_rows(self) -> tuple[OptionRow, ...]:
        """Every option with its default and a line of help."""

    # -- cards --------------------------------------------------------------------------

    @abc.abstractmethod
    def parse_card(self, text: str) -> Card:
        """The card written ``text``; ``ValueError`` if it is not one of this game."""

    # -- the match ----------------------------------------------------------------------

    @abc.abstractmethod
    def start_match(self, options: OptionsT, players: int, first_dealer: int) -> GameMatch:
        """A new match; ``ValueError`` for a seat count outside :attr:`seats`."""

    @abc.abstractmethod
    def deal_plan(self, match: GameMatch) -> DealPlan:
        """The pack and where its cards go, for the match's next deal."""

    def pack(self, match: GameMatch) -> tuple[Card, ...]:
        """The cards shuffled for the match's next deal, in canonical order."""
        return self.deal_plan(match).pack

    def reshuffles(self, match: GameMatch) -> bool:
        """Whether the match's next deal starts from a new shuffle (``plan.fresh``); when
        not, the table hands :meth:`new_deal` the deck of the deal it carries over."""
        return self.deal_plan(match).fresh

    @abc.abstractmethod
    def dealt_in(self, match: GameMatch) -> tuple[bool, ...]:
        """Per seat, whether it receives cards in the match's next deal."""

    @abc.abstractmethod
    def new_deal(self, match: GameMatch, deck: Sequence[Card]) -> GameDeal:
        """The match's next deal from ``deck`` (the shuffled pack, top first; when the
        deal does not :meth:`reshuffle <reshuffles>`, the deck it carries over)."""

    @abc.abstractmethod
    def finish_deal(self, match: GameMatch, deal: GameDeal) -> DealSummary:
        """Settle a finished deal into the match (scores, the next dealer, the end)."""

    @abc.abstractmethod
    def standings(self, match: GameMatch) -> Standings:
        """Winners, order, ranks and scores, as they stand."""

    def standings_with_leavers(self, match: GameMatch, left: Sequence[int], *,
                               draw: bool = False) -> Standings:
        """:meth:`standings` of a match that the seats ``left`` (earliest first) left or
        were put out of, by the rule every game follows (leaving never pays,
        :meth:`Standings.with_leavers`): below every seat that stayed, never among the
        winners while a seat dealt in plays on. ``draw``: the match ends as a draw among
        the seats still playing."""
        playing = [seat for seat, dealt in enumerate(self.dealt_in(match)) if dealt]
        return self.standings(match).with_leavers(left, playing, draw=draw)

    @abc.abstractmethod
    def payouts(self, match: GameMatch) -> tuple[int, ...]:
        """Per seat, stakes won (+) or lost (−) once the match is over (all 0 without)."""

    def breach(self, match: GameMatch, seat: int) -> DealSummary:
        """Settle a proven breach by ``seat`` in the match's current deal (the deal is
        void; the game says what it costs and who deals next). A game whose table puts
        the offender out instead (Lodam) has none."""
        raise GameError(f"{self.title} has no breach penalty")

    def put_out(self, match: GameMatch, seat: int) -> None:
        """Put ``seat``, proven at fault in the match's current deal, out of the match (a
        game that :attr:`puts_out`): the deal is void and the same dealer deals again
        among the others. Nothing happens to a seat already out."""
        raise GameError(f"{self.title} puts nobody out")

    def match_state(self, match: GameMatch) -> JsonObject:
        """The match as plain JSON (numbers, texts, lists, objects): everything the
        scores and the next deal depend on, so that :meth:`restore_match` gives back a
        match that plays on exactly as this one. A game that cannot be saved says so
        (:class:`GameError`)."""
        raise GameError(f"a {self.title} match cannot be saved")

    def restore_match(self, options: OptionsT, players: int, state: object) -> GameMatch:
        """The match :meth:`match_state` described, at a table of ``players`` with
        ``options``. ``state`` may come from another peer: it is checked strictly, and
        ``ValueError`` says what does not fit."""
        raise GameError(f"a {self.title} match cannot be restored")

    # -- the deal -----------------------------------------------------------------------

    @abc.abstractmethod
    def public_part(self, deal: GameDeal) -> PublicT:
        """The public state of ``deal``: what every seat tracks and checks."""

    @abc.abstractmethod
    def turn(self, public: PublicT) -> Turn:
        """Whose step it is as the public state knows it (a seat or a :class:`Holder`)."""

    @abc.abstractmethod
    def public_start(self, match: GameMatch) -> PublicT:
        """The public state of the match's next deal before its first step (no deck)."""

    @abc.abstractmethod
    def public_apply(self, public: PublicT, move: PublicMove) -> None:
        """Advance ``public`` by ``move``, checking all that public knowledge can check
        (turn, a card already played …); :attr:`illegal_action` when it is refused."""

    @abc.abstractmethod
    def step(self, deal: GameDeal, action: ActionT) -> PublicMove:
        """Apply ``action`` to the full ``deal`` and return it as every seat saw it."""

    @abc.abstractmethod
    def hidden_cards(self, deal: GameDeal, seat: int) -> frozenset[Card]:
        """The cards ``seat`` may not know now: never part of its view."""

    def seat_view(self, public: PublicT, seat: int, hand: Sequence[Card]) -> ViewT:
        """The view of ``seat`` that knows the public part and its own current ``hand``
        and nothing else (a seat at a networked table); with its legal actions when the
        step is its own. A game whose tables use their own hand machine need not have it."""
        raise GameError(f"{self.title} has no view from the public part")

    def face_down(self, match: GameMatch) -> bool:
        """Whether the match's next deal is dealt face down to everyone, owners included
        (Lorum's blind Red King): a seat then learns each of its cards only as it is
        played, the next one in dealt order, and never chooses."""
        return False

    def keeps_card(self, wire: WireAction) -> bool:
        """Whether the card of ``wire`` is only shown and stays in its owner's hand (an
        announcement), rather than given up (played, laid)."""
        return False

    # -- actions ------------------------------------------------------------------------

    @abc.abstractmethod
    def encode_action(self, action: ActionT) -> WireAction:
        """``action`` as it travels (see :class:`WireAction`)."""

    @abc.abstractmethod
    def decode_action(self, seat: int, wire: WireAction) -> ActionT:
        """The action of ``seat`` that ``wire`` carries; ``ActionCodecError`` if none."""

    def action_from_list(self, seat: int, raw: object) -> ActionT:
        """:meth:`decode_action` of the ``[kind, [args…], card]`` form, checked."""
        if not isinstance(raw, list | tuple) or len(raw) != 3:
            raise ActionCodecError(f"an action is [kind, [args], card], got {raw!r}")
        kind, args, card_text = raw
        if not isinstance(kind, str) or not isinstance(args, list | tuple):
            raise ActionCodecError(f"an action is [kind, [args], card], got {raw!r}")
        if not all(a is None or isinstance(a, int | str) for a in args):
            raise ActionCodecError(f"action arguments must be plain values, got {args!r}")
        card = None
        if card_text is not None:
            if not isinstance(card_text, str):
                raise ActionCodecError(f"a card is written as text, got {card_text!r}")
            try:
                card = self.parse_card(card_text)
            except ValueError as err:
                raise ActionCodecError(str(err)) from None
        return self.decode_action(seat, WireAction(kind, tuple(args), card))

    @abc.abstractmethod
    def public_action(self, action: ActionT) -> ActionT | None:
        """What the other seats may see of ``action``; ``None`` if it hides a card."""

    def refusal_reason(self, error: Exception) -> str:
        """The reason an :attr:`illegal_action` error gives, for people."""
        return str(getattr(error, "reason", error))

    # -- the audit ----------------------------------------------------------------------

    @abc.abstractmethod
    def replay(self, match: GameMatch, deck: Sequence[Card],
               actions: Iterable[ActionT]) -> Replayed:
        """Replay the match's next deal from the opened ``deck`` over logged ``actions``;
        stops at the first refused action. ``match`` is left unchanged."""

    def replay_scenario(self, scenario: JsonObject) -> JsonObject:
        """One scripted deal of ``lodam rules replay`` (the game's replay format): its
        JSON result object; ``ValueError`` for malformed input. A game without a
        scripted format need not have one."""
        raise GameError(f"{self.title} has no scripted replay format")

    # -- the client shell ---------------------------------------------------------------

    @abc.abstractmethod
    def describe(self, view: ViewT) -> str:
        """One line about the current deal for a status bar (contract, trump …)."""

    @abc.abstractmethod
    def rules_text(self) -> str:
        """A few lines of rules for a help screen, naming the full rules file."""
