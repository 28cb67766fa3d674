import sys

from pstlab.cli import main

sys.exit(main())
