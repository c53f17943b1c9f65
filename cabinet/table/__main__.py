import sys

from cabinet.table.process import main

sys.exit(main())
