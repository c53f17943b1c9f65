"""Subcommands of spit-cabinet, one module each."""
