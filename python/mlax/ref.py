"""Mutable array references, as `jax.ref`."""
from mlax._src.core.refs import (  # noqa: F401
    AbstractRef, Ref, addupdate, empty_ref, free_ref, freeze, get, new_ref, set, swap)
