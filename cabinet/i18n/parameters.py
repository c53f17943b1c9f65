"""The parameters messages take: one meaning and one type per name, in every language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ParameterKind = Literal["whole", "decimal", "text"]


@dataclass(frozen=True)
class Parameter:
    """A parameter messages may take. ``kind`` says what a caller passes:

    - ``"whole"``: an ``int`` (not a bool), shown as digits; it may choose a plural form;
    - ``"decimal"``: a ``float`` or ``int``, shown with one decimal in the language's own
      style (``12.3`` in English, ``12,3`` elsewhere); a ``str`` is shown as given;
    - ``"text"``: a ``str`` shown as given (usually itself a translated message)."""

    name: str
    kind: ParameterKind
    meaning: str


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("player", "whole", "a player's number, 1 or 2"),
        Parameter("count", "whole", "how many (cards, plays); chooses the plural form"),
        Parameter("seconds", "whole", "whole seconds still to wait; chooses the plural form"),
        Parameter("ms", "decimal", "a time in milliseconds (pass the float: 12.3)"),
        Parameter("score0", "whole", "games won in this match by player 1"),
        Parameter("score1", "whole", "games won in this match by player 2"),
        Parameter("n", "whole", "a small number: match length, slot or pile number"),
        Parameter("button", "text", "a button's name, from button.slot or button.pile"),
        Parameter(
            "name", "text", "a name shown as given: a control, a group of counters, a player"
        ),
        Parameter("value", "text", "a value already formatted: a time, a date, a count"),
        Parameter("us", "whole", "a time in whole microseconds (an offset between presses)"),
        Parameter("percent", "decimal", "a share in per cent (pass the float: 99.9)"),
    )
}
"""Every parameter a message may take, with what it holds. A catalog message using any
other name fails the catalog test, so a parameter always means the same thing."""
