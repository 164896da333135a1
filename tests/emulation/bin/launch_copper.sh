#!/usr/bin/env python3
"""TEST FIXTURE standing in for Copper's `launch_copper.sh` / `stop_copper.sh` (Aurora).

Records the call (arguments, time) in the run's log and succeeds; no FUSE mount is made.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _emu  # noqa: E402

_emu.log({"event": "call", "argv": sys.argv[1:]})
