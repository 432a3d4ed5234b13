"""What the vector generators in protocol/ share: the file text and the write-or-check run.

``gen_vectors.py`` (fair deal) and ``gen_lorum_vectors.py`` (Lorum hands) each build a
mapping of file name to JSON content; this module turns it into the exact file text and
either writes the files below ``protocol/vectors/`` or, with ``--check``, says which
ones differ from a fresh run. Their entropy is ``lodam_p2p.fairdeal.sim.drbg``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "vectors"


def render(content: Any) -> str:
    """The exact file text."""
    return json.dumps(content, indent=1, sort_keys=True) + "\n"


def write_or_check(files: Mapping[str, Any], argv: list[str]) -> int:
    """Write ``files`` below ``HERE``; with ``--check`` in ``argv`` write nothing and
    name the stale ones (exit code 1 when there are any)."""
    check = "--check" in argv
    stale = []
    for name, content in files.items():
        path = HERE / name
        text = render(content)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale vectors: " + ", ".join(stale))
        return 1
    return 0
