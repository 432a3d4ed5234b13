"""lodam_p2p — Losing Lodam for humans and bots on a LAN, with no trusted server.

Layers (arrows point inward)::

    ui          bots          cli
        \\        |         /
         session (one seat)
        /        |         \\
    games     fairdeal     transport

``games`` (the game interface, and each game's engine in its package) and ``fairdeal``
are pure: no I/O, no clock, no randomness.
"""

__version__ = "0.1.0"
