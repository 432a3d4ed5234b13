"""The public deal behind a view: replayed from the view's public record.

A search needs the deal at the current point (whose turn, the trick on the table, the
exchange window's progress) to continue it in sampled worlds. A
:class:`~lodam_p2p.games.lodam.PlayerView` carries the whole public record, so the bot replays
it into a fresh :class:`~lodam_p2p.games.lodam.PublicDeal` through the engine's own checked
public methods; the engine then says where the deal stands, and no rule is copied here.

Before which trick each exchange happened is recorded in ``PublicExchange.before_trick``;
a :class:`WindowLog` kept across one seat's decisions also works it out, and stands in
where a record lacks it. Every active seat plays to every trick, so an exchange first
seen at a decision lies in a window no earlier than the first one still open at the
previous decision, and no later than the current one. Where that leaves a range, the
replay places an exchange as early as the turn order allows (its ``lo`` bound) and void
reasoning assumes it as late as possible (its ``hi`` bound): both err towards knowing
less.
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam import (
    Decision,
    ExchangeRule,
    PlayerView,
    PublicDeal,
    PublicExchange,
    RulesError,
)

#: Window bounds of one exchange: the tricks before whose lead it may have happened.
Window = tuple[int, int]


class ReplayError(ValueError):
    """The view's public record could not be replayed to its current point."""


@dataclass(slots=True)
class WindowLog:
    """Before which trick each exchange of the current deal happened, as far as one
    seat's sequence of views can tell (see the module docstring)."""

    _key: tuple[object, ...] = ()
    _seen: tuple[PublicExchange, ...] = ()
    _windows: tuple[Window, ...] = ()
    _closed: int = -1  #: every window up to this index was over at the last view
    _tricks: int = 0  #: tricks in the last view

    def observe(self, view: PlayerView) -> tuple[Window, ...]:
        """Take in ``view``; the window bounds of each of its exchanges, in order."""
        key = (view.dealer, view.lives, view.active)
        tricks = len(view.tricks)
        stale = view.exchanges[: len(self._seen)] != self._seen or tricks < self._tricks
        if key != self._key or stale:
            self.reset()
            self._key = key
        if view.options.exchanges is ExchangeRule.FIRST_TRICK:
            low = 0
        else:
            low = min(self._closed + 1, tricks)
        fresh = view.exchanges[len(self._seen) :]
        self._windows += tuple(_bounds(e, low, tricks) for e in fresh)
        self._seen, self._tricks = view.exchanges, tricks
        # a window is over once the trick it precedes is being played
        playing = view.awaiting in (Decision.PLAY, Decision.SWALLOW)
        self._closed = max(self._closed, tricks if playing else tricks - 1)
        return self._windows

    def reset(self) -> None:
        """Forget the deal (a new match)."""
        self._key, self._seen, self._windows, self._closed, self._tricks = (), (), (), -1, 0


def _bounds(exchange: PublicExchange, low: int, high: int) -> Window:
    """The window of ``exchange``: the trick it preceded when the record says so (and
    that fits what the log saw), else the log's bounds."""
    before = getattr(exchange, "before_trick", None)
    if isinstance(before, int) and low <= before <= high:
        return (before, before)
    return (low, high)


def replay(view: PlayerView, windows: tuple[Window, ...] | None = None) -> PublicDeal:
    """The public deal at the point of ``view``; ``ReplayError`` if it cannot be reached.

    ``windows`` bounds each exchange (from a :class:`WindowLog`); without them every
    exchange goes to the earliest window the turn order allows."""
    if windows is None or len(windows) != len(view.exchanges):
        windows = tuple((0, len(view.tricks)) for _ in view.exchanges)
    public = PublicDeal.start(view.options, view.dealer, view.lives, view.active)
    cursor = _Cursor(view, windows)
    try:
        for _ in range(10_000):
            if cursor.caught_up(public):
                return public
            cursor.step(public)
    except (RulesError, IndexError, AssertionError) as err:
        raise ReplayError(f"the public record does not replay: {err}") from None
    raise ReplayError("the public record does not replay: no end")


@dataclass(slots=True)
class _Cursor:
    """How far the replay has read into the view's record."""

    view: PlayerView
    windows: tuple[Window, ...]
    exchange: int = 0  #: next exchange to place
    offered: bool = False  #: the view's pending offer has been made

    def caught_up(self, public: PublicDeal) -> bool:
        view = self.view
        return (
            public.tricks_played == len(view.tricks)
            and len(public.current_trick) == len(view.current_trick)
            and self.exchange == len(view.exchanges)
            and (view.pending_offer is None or self.offered)
            and public.to_act == view.to_act
            and public.awaiting is view.awaiting
        )

    def step(self, public: PublicDeal) -> None:
        seat, decision = public.to_act, public.awaiting
        assert seat is not None and decision is not None
        if decision is Decision.OFFER:
            self._offer(public, seat)
        elif decision is Decision.ANSWER:
            self._answer(public, seat)
        elif decision is Decision.PLAY:
            done = public.tricks_played
            view = self.view
            cards = view.tricks[done].cards if done < len(view.tricks) else view.current_trick
            _seat, card = cards[len(public.current_trick)]
            public.play(seat, card, view.trump_card)
        elif decision is Decision.SWALLOW:
            done = public.tricks_played
            taken = done < len(self.view.tricks) and self.view.tricks[done].swallowed
            public.swallow(seat, taken)
        elif decision is Decision.DECLARE:
            public.declare(seat, False)
        else:
            public.challenge(seat, None)

    def _offer(self, public: PublicDeal, seat: int) -> None:
        view, i = self.view, self.exchange
        window = public.tricks_played
        if i < len(view.exchanges):
            exchange, (low, _high) = view.exchanges[i], self.windows[i]
            if exchange.offerer == seat and window >= low:
                public.offer(seat, exchange.kind)
                return
        pending = view.pending_offer
        at_point = i == len(view.exchanges) and window == len(view.tricks)
        if pending is not None and at_point and pending.offerer == seat and not self.offered:
            self.offered = True
            public.offer(seat, pending.kind)
            return
        public.offer(seat, None)

    def _answer(self, public: PublicDeal, seat: int) -> None:
        view, i = self.view, self.exchange
        if i == len(view.exchanges):  # the view's own pending offer: earlier seats declined
            public.answer(seat, False)
            return
        exchange = view.exchanges[i]
        if exchange.acceptor == seat:
            public.answer(seat, True, exchange.void)
            self.exchange += 1
            return
        public.answer(seat, False)
        if public.pending_offer is None:  # it lapsed
            self.exchange += 1
