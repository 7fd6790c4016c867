"""`python -m recordkit` runs the command line."""

from recordkit.cli import main

main()
