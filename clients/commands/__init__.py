"""Subcommands of `domino-oracle`, one module each (see clients/cli.py)."""
