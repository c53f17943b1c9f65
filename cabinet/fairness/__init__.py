"""The fairness test: proof that the first press wins (docs/fairness.md).

A jig presses pairs of presses across two button lines at known offsets
(:mod:`firmware_bridge.fairness`: the schedule both sides share); the cabinet judges every
pair with its own referee (:func:`game.race_judge.judge_race`) and says, per offset, how
many it decided right. :mod:`.judging` pairs the presses and judges them,
:mod:`.certificate` holds the result the books keep and the fleet is sent, :mod:`.session`
steps a test under way and certifies its end (for the command and the service menu alike),
:mod:`.runner` runs a test on the cabinet's own inputs (``spit-cabinet fairness``).

>>> from cabinet.fairness.certificate import CaseResult
>>> CaseResult(offset_us=100, pairs=1000, right=999, wrong=1).passed
True
"""

__all__ = ["certificate", "judging", "runner", "session"]
