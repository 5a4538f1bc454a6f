"""mlax.profiler, as jax.profiler: traces for TensorBoard/XProf and Perfetto,
trace annotations, the profiler server and device memory profiles."""
from mlax._src.backend.profiler import (  # noqa: F401
    ProfileData, ProfileEvent, ProfileOptions, ProfilePlane, StepTraceAnnotation,
    TraceAnnotation, annotate_function, device_memory_profile, register_subprocess,
    save_device_memory_profile, start_server, start_trace, stop_server, stop_trace, trace)
