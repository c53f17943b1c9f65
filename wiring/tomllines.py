"""Where each key of a TOML document is written: the line numbers ``tomllib`` does not give.

``tomllib`` reports line numbers for syntax errors only. To say *which line* holds a value
the pin map rejects, :func:`key_lines` scans a document that ``tomllib`` has already parsed
and records the 1-based line of every table header, key and array element, by key path:
``("player1", "slot1")``, ``("allow_reserved", 0)``. Dotted keys (``player1.slot1 = 17``),
inline tables and multi-line arrays and strings are understood.
"""

from __future__ import annotations

import bisect
import contextlib
import tomllib
from typing import TypeAlias

#: A key path: table and key names, and 0-based indexes into arrays.
KeyPath: TypeAlias = tuple[str | int, ...]

_BARE_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def key_lines(text: str) -> dict[KeyPath, int]:
    """The 1-based line of every key path in ``text``, a valid TOML document.

    A table's path maps to its header's line (or, for a table made only by dotted keys, the
    first line that names it). On a document ``tomllib`` would reject, returns what it found
    before the fault.
    """
    scanner = _Scanner(text)
    with contextlib.suppress(IndexError, ValueError, tomllib.TOMLDecodeError):
        scanner.document()
    return scanner.lines


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int | None:
    """The line of ``path``, or of its nearest enclosing key that has one, or ``None``."""
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.lines: dict[KeyPath, int] = {}
        self._newlines = [n for n, c in enumerate(text) if c == "\n"]
        self._array_tables: dict[KeyPath, int] = {}

    # -- positions -------------------------------------------------------------------------

    def line(self) -> int:
        return bisect.bisect_left(self._newlines, self.i) + 1

    def peek(self, n: int = 1) -> str:
        return self.text[self.i : self.i + n]

    def record(self, path: KeyPath, line: int) -> None:
        for end in range(1, len(path) + 1):
            self.lines.setdefault(path[:end], line)

    # -- skipping --------------------------------------------------------------------------

    def skip_blank(self, newlines: bool) -> None:
        """Skip spaces, tabs and comments; and newlines too when ``newlines``."""
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            elif c == "#":
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            else:
                return

    def expect(self, token: str) -> None:
        if not self.text.startswith(token, self.i):
            raise ValueError(f"expected {token!r} at offset {self.i}")
        self.i += len(token)

    # -- grammar ---------------------------------------------------------------------------

    def document(self) -> None:
        table: KeyPath = ()
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(self.text):
                return
            line = self.line()
            if self.peek(2) == "[[":
                self.i += 2
                name = self.key()
                self.expect("]]")
                index = self._array_tables.get(name, -1) + 1
                self._array_tables[name] = index
                table = (*name, index)
                self.record(table, line)
            elif self.peek() == "[":
                self.i += 1
                table = self.key()
                self.expect("]")
                self.lines[table] = line
                self.record(table, line)
            else:
                self.key_value(table)

    def key_value(self, parent: KeyPath) -> None:
        line = self.line()
        path = (*parent, *self.key())
        self.record(path, line)
        self.skip_blank(newlines=False)
        self.expect("=")
        self.skip_blank(newlines=False)
        self.value(path)

    def key(self) -> KeyPath:
        parts: list[str] = []
        while True:
            self.skip_blank(newlines=False)
            c = self.peek()
            if c == '"':
                start = self.i
                self.basic_string()
                parts.append(tomllib.loads("k = " + self.text[start : self.i])["k"])
            elif c == "'":
                start = self.i
                self.literal_string()
                parts.append(self.text[start + 1 : self.i - 1])
            else:
                start = self.i
                while self.i < len(self.text) and self.text[self.i] in _BARE_KEY_CHARS:
                    self.i += 1
                if self.i == start:
                    raise ValueError(f"expected a key at offset {start}")
                parts.append(self.text[start : self.i])
            self.skip_blank(newlines=False)
            if self.peek() != ".":
                return tuple(parts)
            self.i += 1

    def value(self, path: KeyPath) -> None:
        c = self.peek()
        if c == '"':
            self.basic_string()
        elif c == "'":
            self.literal_string()
        elif c == "[":
            self.array(path)
        elif c == "{":
            self.inline_table(path)
        else:
            while self.i < len(self.text) and self.text[self.i] not in ",]}\n#":
                self.i += 1

    def array(self, path: KeyPath) -> None:
        self.expect("[")
        index = 0
        while True:
            self.skip_blank(newlines=True)
            if self.peek() == "]":
                self.i += 1
                return
            self.record((*path, index), self.line())
            self.value((*path, index))
            self.skip_blank(newlines=True)
            if self.peek() == ",":
                self.i += 1
                index += 1

    def inline_table(self, path: KeyPath) -> None:
        self.expect("{")
        while True:
            self.skip_blank(newlines=False)
            if self.peek() == "}":
                self.i += 1
                return
            self.key_value(path)
            self.skip_blank(newlines=False)
            if self.peek() == ",":
                self.i += 1

    def basic_string(self) -> None:
        if self.peek(3) == '"""':
            self.i += 3
            while not self.text.startswith('"""', self.i):
                self.i += 2 if self.text[self.i] == "\\" else 1
                if self.i >= len(self.text):
                    raise ValueError("unterminated string")
            self.i += 3
            while self.peek() == '"':  # up to two quotes may close the content
                self.i += 1
            return
        self.expect('"')
        while self.text[self.i] != '"':
            self.i += 2 if self.text[self.i] == "\\" else 1
        self.i += 1

    def literal_string(self) -> None:
        if self.peek(3) == "'''":
            end = self.text.index("'''", self.i + 3)
            self.i = end + 3
            while self.peek() == "'":
                self.i += 1
            return
        self.i = self.text.index("'", self.i + 1) + 1
