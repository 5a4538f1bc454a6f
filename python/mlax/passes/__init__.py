"""Writing and running passes over the mlax dialect from Python.

A pass is a pass-pipeline string (C++ passes, as `mlax-opt` takes them), the
name of a registered Python pass, or a Python callable over the module
operation. See docs/tutorial-writing-a-pass.md.

    mlax.jit(f, passes=["canonicalize", my_pass])
    mlax.config.update("mlax_extra_passes", ["square-to-pow"])
"""
from mlax._src.backend.passes import (  # noqa: F401
    PassError, dialect, load_callable, load_module, pattern_pass, register, registered, run_passes)
