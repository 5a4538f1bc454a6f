"""random layer of mlax._src (see mlax/_src/__init__.py)."""
# JAX's PRNG implementations beyond prng's three register on import.
from mlax._src.random import counter_impls  # noqa: F401
