import sys

from cabinet.cli import main

sys.exit(main())
