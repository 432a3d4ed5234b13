"""Lorum's actions on the wire: a kind, plain arguments and at most one card.

========================  ===================  ========  ======================
action                    kind, args           card      passage
========================  ===================  ========  ======================
``Play(s, c)``            ``play``             c         face up to every seat
``Lay(s, c)``             ``lay``              c         face up to every seat
``Pass(s)``               ``pass``             —         —
``Announce(s, True)``     ``announce``, (1,)   ``KH``    face up (it is shown)
``Announce(s, False)``    ``announce``, (0,)   —         —
========================  ===================  ========  ======================

Every card of Lorum travels face up: nothing is exchanged or offered unseen. A pass
reveals nothing; whether the seat could have laid is checked at the audit (LORUM.md 7).
A Quartet run card is sent by whoever holds it, so its move names the seat that
revealed it; the public part checks that it is the awaited card.
"""

from __future__ import annotations

from lodam_p2p.games.kit.values import ActionCodecError, Passage, PublicMove, WireAction
from lodam_p2p.games.lorum.actions import Action, Announce, Lay, Pass, Play
from lodam_p2p.games.lorum.cards import RED_KING, Card
from lodam_p2p.games.lorum.public import PublicDeal


def encode(action: Action) -> WireAction:
    """``action`` as it travels (see the module docstring)."""
    if isinstance(action, Play):
        return WireAction("play", (), action.card, Passage.FACE_UP)
    if isinstance(action, Lay):
        return WireAction("lay", (), action.card, Passage.FACE_UP)
    if isinstance(action, Pass):
        return WireAction("pass")
    if isinstance(action, Announce):
        if action.announced:
            return WireAction("announce", (True,), RED_KING, Passage.FACE_UP)
        return WireAction("announce", (False,))
    raise ActionCodecError(f"not a Lorum action: {action!r}")


def decode(seat: int, wire: WireAction) -> Action:
    """The action of ``seat`` that ``wire`` carries; ``ActionCodecError`` if none."""
    kind, args, card = wire.kind, wire.args, wire.card
    if card is not None and type(card) is not Card:
        raise ActionCodecError(f"not a Lorum card: {card!r}")
    if kind in ("play", "lay") and not args and isinstance(card, Card):
        return Play(seat, card) if kind == "play" else Lay(seat, card)
    if kind == "pass" and not args and card is None:
        return Pass(seat)
    if kind == "announce" and len(args) == 1 and isinstance(args[0], bool):
        if args[0] and card is not RED_KING:
            raise ActionCodecError(f"an announcement shows {RED_KING}, got {card}")
        if not args[0] and card is not None:
            raise ActionCodecError("keeping the red king quiet shows no card")
        return Announce(seat, args[0])
    raise ActionCodecError(f"not a Lorum action: {wire.to_list()!r}")


def apply_public(public: PublicDeal, move: PublicMove) -> None:
    """Advance ``public`` by a move as every seat saw it: everything a move shows is
    public, so the move is the action itself, checked as far as the public part can."""
    public.apply_event(decode(move.seat, move.wire))
