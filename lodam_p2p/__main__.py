"""``python -m lodam_p2p`` is the ``lodam`` command."""

import sys

from lodam_p2p.cli import main

sys.exit(main())
