import sys

from cabinet.commands.cli import main

sys.exit(main())
