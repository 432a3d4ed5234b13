"""``lodam arena``: offline matches among bots — no network, no crypto.

:mod:`~lodam_p2p.arena.config` parses and checks what to play,
:mod:`~lodam_p2p.arena.chance` derives every random draw from the seed,
:mod:`~lodam_p2p.arena.match` plays one match, :mod:`~lodam_p2p.arena.runner` the
schedule (rotation groups, worker processes, early stop), and
:mod:`~lodam_p2p.arena.stats` / :mod:`~lodam_p2p.arena.summary` /
:mod:`~lodam_p2p.arena.report` turn match records into figures.
"""

from lodam_p2p.arena.config import ArenaConfig, ArenaError, build_config
from lodam_p2p.arena.runner import ArenaResult, EarlyStop, run_arena

__all__ = ["ArenaConfig", "ArenaError", "ArenaResult", "EarlyStop", "build_config", "run_arena"]
