# The scripted host's side of the wire, shared by the scripts that boot the real firmware
# under both CPython and MicroPython (the runner copies this file beside them).
import select

from firmware_bridge import codec


class Clock:
    """A virtual millisecond clock the script moves by hand."""

    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


class Host:
    """The host's end of the wire: bytes to the board and the frames it answered.
    ``limit``: the board sees only the bytes before it (None: all sent bytes), so a script
    decides how the stream is split into the board's reads."""

    def __init__(self):
        self.to_board = bytearray()
        self.at = 0
        self.limit = None
        self.decoder = codec.FrameDecoder()
        self.replies = []

    def read(self, n):
        chunk = bytes(self.to_board[self.at : self.at + n])
        self.at += len(chunk)
        return chunk

    def poll(self, timeout_ms):
        end = len(self.to_board) if self.limit is None else self.limit
        return [(self, select.POLLIN)] if self.at < end else []

    def write(self, data):
        self.replies.extend(self.decoder.feed(data))
        return len(data)

    def send(self, data):
        self.to_board.extend(data)
