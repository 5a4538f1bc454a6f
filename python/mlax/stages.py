"""mlax.stages: as jax.stages, the objects of ahead-of-time compilation
(`jit(f).trace(...)`, `.lower(...)`, `.compile()`)."""
from mlax._src.jit.stages import (  # noqa: F401
    ArgInfo, Compiled, CompilerOptions, Lowered, Traced, Wrapped)
