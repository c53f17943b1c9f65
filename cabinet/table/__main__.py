"""``python -m cabinet.table``: the table process (:mod:`cabinet.table.process`)."""

import importlib.util
import sys

# The table hashes one thing, the deck's shuffle (sha256, game/cards.py), and Python has
# that digest built in. Left alone, hashlib loads OpenSSL's libcrypto for it: 3.5 MB of
# this process's 28 MB (bench/README.md, memory). A ``None`` in sys.modules makes
# ``import _hashlib`` fail, and hashlib takes Python's own digests: the same bytes.
if importlib.util.find_spec("_sha2" if sys.version_info >= (3, 12) else "_sha256"):
    sys.modules.setdefault("_hashlib", None)  # type: ignore[arg-type]

from cabinet.table.process import main  # after the line above, on purpose

sys.exit(main())
