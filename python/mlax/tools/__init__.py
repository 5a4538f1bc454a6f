"""Command-line tools (`python -m mlax.tools.opt`)."""
