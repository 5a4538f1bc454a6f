"""transforms layer of mlax._src (see mlax/_src/__init__.py)."""
