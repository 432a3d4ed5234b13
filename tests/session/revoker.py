"""Test support: a player that renounces once while holding the led suit, and the patch
that sends its answers unchecked (a seat's own rules check would refuse the renounce)."""

from __future__ import annotations

from lodam_p2p.games.lodam import Action, Play, PlayerView
from lodam_p2p.session.seat import Decided, TableMachine


class Revoker:
    """Plays the first legal card, except once: a renounce while holding the led suit."""

    def __init__(self) -> None:
        self.revoked = False

    def notify(self, event: object) -> None:
        """Nothing to remember."""

    async def decide(self, view: PlayerView) -> Action:
        if not self.revoked and view.current_trick and view.awaiting is not None:
            led = view.current_trick[0][1].suit
            others = [c for c in view.hand if c.suit != led]
            if others and any(c.suit == led for c in view.hand):
                self.revoked = True
                return Play(view.seat, others[0])
        return view.legal[0]


def cheating(machine: TableMachine) -> None:
    """Patch ``machine`` so that its player's answers are sent unchecked."""
    honest = machine.asking.decided

    def decided(item: Decided) -> None:
        hand = machine.hand
        if (hand is not None and item.action is not None and hand.my_turn()
                and (item.hand, item.step) == (machine.hand_no, hand.step)):
            body = hand.act(item.action, machine.now())
            machine.drain_hand()
            machine.send(body)
            return
        honest(item)

    machine.asking.decided = decided  # type: ignore[method-assign]
