"""A peer that connects with a presence, says "ready" on stdout, and idles.

Tests kill it with SIGKILL to check that its Last Will fires::

    python -m tests.support.presence_peer URL TABLE PEER
"""

from __future__ import annotations

import asyncio
import sys

from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.presence import PresenceSpec


async def main(url: str, table: str, peer: str) -> None:
    """Connect, announce, print the nonce, wait forever."""
    async with MqttTransport(url, PresenceSpec(table, peer), keepalive=5) as transport:
        print(f"ready {transport.nonce}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
