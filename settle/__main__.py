"""``python -m settle``: the same command line as the ``settle`` script."""

from settle.cli import main

main()
