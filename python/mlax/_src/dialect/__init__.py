"""Generated op classes live here once mlax is built (_mlax_ops_gen.py)."""
