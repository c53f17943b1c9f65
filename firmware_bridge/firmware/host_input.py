"""Reading the host's bytes without blocking, shared by both boards (MicroPython subset).

The light board's loop (:mod:`firmware_bridge.firmware.app`) and the fairness jig's
(:mod:`firmware_bridge.jig.app`) both read their USB serial port with
:func:`read_host_bytes`: one wait of a bounded time, then only what has already arrived,
at most a bounded number of bytes, so the rest of the loop's turn always comes soon.
"""

import select

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware_bridge.firmware.interfaces import PollerLike, ReaderLike


def read_host_bytes(
    reader: "ReaderLike", poller: "PollerLike", timeout_ms: int, max_bytes: int
) -> bytearray:
    """Wait up to ``timeout_ms`` for the host's bytes, then read them one at a time while
    ``poller`` says more are ready, at most ``max_bytes``. Returns what was read (empty
    when nothing came in time). ``poller`` has ``reader`` registered for POLLIN."""
    chunk = bytearray()
    events = poller.poll(timeout_ms)
    while events and len(chunk) < max_bytes:
        if not events[0][1] & select.POLLIN:
            break
        byte = reader.read(1)
        if not byte:
            break
        chunk.extend(byte)
        events = poller.poll(0)
    return chunk
