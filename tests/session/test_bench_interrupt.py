"""Ctrl-C of ``lodam bench load``: the command and every process it started end.

The interrupt goes to the command's whole process group, as a terminal's Ctrl-C does,
once its workers have said who they are and the tables are on the broker. The private
broker is not in that group: the command stops it after its workers. Nothing here
waits a fixed time; the process timeouts are only safety nets.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.support.procs import PATIENCE, ended, listening, lobby, wait_for

#: ``python -m lodam_p2p`` as a terminal starts it: with SIGINT at its default. A suite
#: started in the background by a non-interactive shell inherits SIGINT ignored, and a
#: program that starts with it ignored rightly keeps ignoring it.
_AT_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, "
                  "signal.default_int_handler); sys.argv[0] = 'lodam'; "
                  "runpy.run_module('lodam_p2p', run_name='__main__', alter_sys=True)")


def _group_gone(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.slow
def test_an_interrupted_bench_load_stops_its_workers_and_exits_130() -> None:
    bench = subprocess.Popen([sys.executable, "-c", _AT_A_TERMINAL, "bench", "load", "--tables",
                              "2", "--seats", "3", "--workers", "2", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
    try:
        assert bench.stderr is not None
        started = bench.stderr.readline().decode()  # the line naming the workers
        assert "worker processes (pids " in started, started
        url = started.split(" tables on ")[1].split(",")[0]
        workers = [int(pid) for pid in started.split("(pids ")[1].split(")")[0].split()]
        assert len(workers) == 2
        wait_for("both tables on the broker",
                 lambda: sum(a.table.startswith(f"load-{bench.pid}-") for a in lobby(url)) == 2)
        os.killpg(bench.pid, signal.SIGINT)  # what Ctrl-C at a terminal does
        out, err = bench.communicate(timeout=PATIENCE)
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
    told = err.decode()
    assert bench.returncode == 130, told
    assert out == b"", told
    assert told.splitlines() == ["lodam: bench load interrupted: stopped 2 of its 2 worker "
                                 "processes"], told
    wait_for("the workers ended", lambda: all(ended(pid) for pid in workers))
    wait_for("nothing left of the command's process group", lambda: _group_gone(bench.pid))
    # the private broker has a group of its own (Ctrl-C is not for it): the command
    # stopped it last, so no worker saw it vanish and said so
    port = int(url.rsplit(":", 1)[1])
    wait_for("the private broker stopped", lambda: not listening(port))
