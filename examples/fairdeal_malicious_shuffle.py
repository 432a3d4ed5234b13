"""Plant a malicious shuffle at a fair-deal table and watch who is convicted, and when.

Seat 2 of four copies the first ciphertext of its shuffled deck over the second one
(re-randomised, so the copy looks fresh): the deck then holds one card twice and another
not at all, so that two seats could be dealt the same card. The rewrite hook of
``lodam_p2p.fairdeal.sim`` makes the change before the message is signed and chained, so
what leaves seat 2 is a validly signed envelope: exactly what a cheating peer sends.

The same cheat is played under each shuffle argument. With a proof of shuffle (``tw``,
``bg``) every other seat refuses seat 2's deck the moment it arrives, before anybody
publishes a decryption share. Without one (``none``) the deal goes ahead and only the
audit, once the hand is over, finds the shuffle that does not re-derive. Either way the
transcript convicts seat 2 in ``lodam verify``.

Run it with ``python examples/fairdeal_malicious_shuffle.py``.
"""

from __future__ import annotations

from dataclasses import replace

from lodam_p2p.fairdeal import Hand, Phase, sim, verify_transcript
from lodam_p2p.fairdeal.group import add, base_mul, mul
from lodam_p2p.fairdeal.messages import ShuffleMsg

CHEATER = 2


def copy_first_card(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    """The shuffled deck with ciphertext 1 replaced by ciphertext 0 re-encrypted."""
    (a, b), joint = msg.deck[0], hand.record.joint
    assert joint is not None
    copy = (add(a, base_mul(7)), add(b, mul(joint, 7)))
    return replace(msg, deck=(msg.deck[0], copy, *msg.deck[2:]))


def play(argument: str) -> list[str]:
    """One hand with the cheat under ``argument``; what happened, line by line."""
    config, keys = sim.table(4, 32, argument=argument)
    table = sim.Sim(config, keys, rewrite={CHEATER: sim.only(ShuffleMsg, copy_first_card)})
    table.deal()
    dealt = [s for s, hand in table.hands.items() if hand.phase is Phase.PLAY]
    lines = [f"{argument}: after the deal ({table.rounds} rounds), seats in play: "
             f"{dealt or 'none'}"]
    held: dict[int, list[int]] = {}
    for seat, hand in table.hands.items():
        for card in hand.cards.values():
            held.setdefault(card, []).append(seat)
    twice = {card: seats for card, seats in held.items() if len(seats) > 1}
    if twice:
        lines.append(f"{argument}: dealt twice (card: seats): {twice}")
    table.finish()
    for c in table.convictions:
        lines.append(f"{argument}:   round {c.round}, {c.phase} phase: seat {c.by} convicts "
                     f"seat {c.seat} ({c.check})")
    verdict = verify_transcript(table.transcript())
    lines.append(f"{argument}: lodam verify: guilty seat {verdict.guilty} "
                 f"({verdict.blame.check if verdict.blame else 'none'})")
    return lines


def main() -> list[str]:
    """Play the cheat under every shipped argument and print the timeline."""
    lines = [line for argument in ("tw", "bg", "none") for line in play(argument)]
    print("\n".join(lines))
    return lines


if __name__ == "__main__":
    main()
