"""Everything that touches the world: input, display, lights, sound, storage, menus and the CLI."""

import os as _os

# pygame prints a banner on import unless told not to; the cabinet logs instead.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
