"""The board's boot script: ``spit-cabinet firmware flash`` copies it to ``/main.py``."""

from firmware_bridge.firmware import app

app.main()
