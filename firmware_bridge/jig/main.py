"""The jig's boot script: docs/fairness.md copies it to the board's ``/main.py``."""

from firmware_bridge.jig import app

app.main()
