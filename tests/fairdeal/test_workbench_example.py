"""The worked example of docs/fairdeal-workbench.md runs and says what the page says."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fairdeal_malicious_shuffle.py"


def test_the_malicious_shuffle_example(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("fairdeal_malicious_shuffle", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines = module.main()
    assert capsys.readouterr().out.splitlines() == lines
    for argument in ("tw", "bg"):  # refused on arrival, by every other seat, before the deal
        mine = [line for line in lines if line.startswith(f"{argument}:")]
        assert mine[0] == f"{argument}: after the deal (4 rounds), seats in play: none"
        assert [f"round 4, shuffle phase: seat {s} convicts seat 2 (shuffle)" in line
                for s, line in zip((0, 1, 3), mine[1:4], strict=True)] == [True] * 3
        assert mine[-1] == f"{argument}: lodam verify: guilty seat 2 (shuffle)"
    none = [line for line in lines if line.startswith("none:")]
    assert none[0] == "none: after the deal (6 rounds), seats in play: [0, 1, 2, 3]"
    assert all("audit phase" in line and "convicts seat 2 (shuffle)" in line
               for line in none if "convicts" in line)
    assert none[-1] == "none: lodam verify: guilty seat 2 (shuffle)"
