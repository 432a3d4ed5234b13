"""Lodam's actions on the wire: a kind, plain arguments and at most one card.

====================  ======================  ========  =========================
action                kind, args              card      passage
====================  ======================  ========  =========================
``Play(s, c)``        ``play``                c         face up to every seat
``Offer(s, c)``       ``offer``, (kind,)      c         face down, committed
``Offer(s, None)``    ``offer``, (None,)      —         —
``Answer(s, c)``      ``answer``              c         to the offerer only
``Answer(s, None)``   ``answer``              —         —
``Swallow(s, t)``     ``swallow``, (t,)       —         —
``Declare(s, o, c)``  ``declare``, (o, c)     —         —
``Challenge(s, t)``   ``challenge``, (t,)     —         —
====================  ======================  ========  =========================
"""

from __future__ import annotations

from lodam_p2p.games.kit.values import ActionCodecError, Passage, PublicMove, WireAction, WireValue
from lodam_p2p.games.lodam.actions import (
    Action,
    Answer,
    Challenge,
    Declare,
    MalformedInput,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.cards import Card, Kind
from lodam_p2p.games.lodam.public import PublicDeal


def encode(action: Action) -> WireAction:
    """``action`` as it travels (see the module docstring)."""
    if isinstance(action, Play):
        return WireAction("play", (), action.card, Passage.FACE_UP)
    if isinstance(action, Offer):
        if action.card is None:
            return WireAction("offer", (None,))
        kind = action.card.kind
        return WireAction("offer", (None if kind is None else kind.value,), action.card,
                          Passage.FACE_DOWN)
    if isinstance(action, Answer):
        if action.card is None:
            return WireAction("answer")
        return WireAction("answer", (), action.card, Passage.TO_ONE)
    if isinstance(action, Swallow):
        return WireAction("swallow", (action.take,))
    if isinstance(action, Declare):
        return WireAction("declare", (action.out, action.challenge))
    if isinstance(action, Challenge):
        return WireAction("challenge", (action.target,))
    raise ActionCodecError(f"not a Lodam action: {action!r}")


def decode(seat: int, wire: WireAction) -> Action:
    """The action of ``seat`` that ``wire`` carries; ``ActionCodecError`` if none."""
    kind, args, card = wire.kind, wire.args, wire.card
    if card is not None and not isinstance(card, Card):
        raise ActionCodecError(f"not a Lodam card: {card!r}")
    if kind == "play" and not args and card is not None:
        return Play(seat, card)
    if kind == "offer" and len(args) == 1:
        return _offer(seat, args[0], card)
    if kind == "answer" and not args:
        return Answer(seat, card)
    if card is None and kind in _SIMPLE and len(args) == len(_SIMPLE[kind]):
        for value, expected in zip(args, _SIMPLE[kind], strict=True):
            if not _fits(value, expected):
                raise ActionCodecError(f"bad arguments for {kind}: {list(args)!r}")
        return _build_simple(seat, kind, args)
    raise ActionCodecError(f"not a Lodam action: {wire.to_list()!r}")


#: Argument types of the actions without a card: "bool", "seat" (int) or "seat?" (or None).
_SIMPLE = {"swallow": ("bool",), "declare": ("bool", "seat?"), "challenge": ("seat?",)}


def _fits(value: WireValue, expected: str) -> bool:
    if expected == "bool":
        return isinstance(value, bool)
    if value is None:
        return expected == "seat?"
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 256


def _build_simple(seat: int, kind: str, args: tuple[WireValue, ...]) -> Action:
    if kind == "swallow":
        return Swallow(seat, bool(args[0]))
    if kind == "declare":
        target = args[1]
        return Declare(seat, bool(args[0]), target if isinstance(target, int) else None)
    target = args[0]
    return Challenge(seat, target if isinstance(target, int) else None)


def _offer(seat: int, kind: WireValue, card: Card | None) -> Offer:
    if card is None:
        if kind is not None:
            raise ActionCodecError("an offer of a kind needs its card")
        return Offer(seat, None)
    if card.kind is None or not isinstance(kind, str) or card.kind.value != kind:
        raise ActionCodecError(f"{card} is not a {kind!r} to offer")
    return Offer(seat, card)


def apply_public(public: PublicDeal, move: PublicMove) -> None:
    """Advance ``public`` by a move as every seat saw it (hidden cards withheld): a
    play shows its card (and the turned trump, at the first renounce), an offer its
    kind, an answer whether a card was handed over (and the announced void)."""
    seat, wire = move.seat, move.wire
    kind, args = wire.kind, wire.args
    if kind == "play" and isinstance(wire.card, Card):
        turned = move.turned if isinstance(move.turned, Card) else None
        public.play(seat, wire.card, turned)
    elif kind == "offer" and len(args) == 1:
        public.offer(seat, _kind(args[0]))
    elif kind == "answer":
        accepted = wire.passage is Passage.TO_ONE
        void = accepted and bool(move.outcome and move.outcome[0] is True)
        public.answer(seat, accepted, void)
    else:
        action = decode(seat, wire)
        if isinstance(action, Swallow):
            public.swallow(seat, action.take)
        elif isinstance(action, Declare):
            public.declare(seat, action.out, action.challenge)
        elif isinstance(action, Challenge):
            public.challenge(seat, action.target)
        else:
            raise ActionCodecError(f"not a public Lodam move: {wire.to_list()!r}")


def _kind(value: WireValue) -> Kind | None:
    if value is None:
        return None
    for kind in Kind:
        if kind.value == value:
            return kind
    raise MalformedInput(f"no exchange kind {value!r}")
