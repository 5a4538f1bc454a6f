#!/usr/bin/env bash
# mlax on a GPU, in about five minutes: the GPU tests, a few core test files
# with the GPU as the default device, and a short benchmark against JAX on
# the same GPU (steady-state ratios mlax/JAX, in one process).
#
#   MLAX_BUILD_DIR=<a built mlax: mlax-opt, the plugin, the ops> \
#   PYTHONPATH=<the `mlir` bindings' site-packages> bash scripts/gpu_check.sh
#
# Needs `python3` (or $PYTHON) with jax, jaxlib and a CUDA plugin
# (`pip install "mlax[cuda12]"` installs the pinned ones). When the
# installed jaxlib is not the version mlax pins, the run says so and allows
# it explicitly (MLAX_ALLOW_JAXLIB_VERSION; mlax then warns, and uses its
# Python dispatch path wherever jaxlib's internals differ).
# Each step has a time limit; the exit status is nonzero if any step failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYTHON:-python3}"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
# Several pytest workers share the GPU: none may take most of its memory.
export XLA_PYTHON_CLIENT_PREALLOCATE=false
: "${MLAX_BUILD_DIR:?set MLAX_BUILD_DIR to a built mlax (mlax-opt, plugin, ops)}"
export MLAX_BUILD_DIR

pinned="$(sed -n 's/^SUPPORTED_JAXLIB = "\([^"]*\)".*/\1/p' python/mlax/_src/base/jaxlib_internals.py)"
found="$("$py" -c 'import jaxlib; print(jaxlib.__version__)')"
if [ "$found" != "$pinned" ]; then
  echo "== jaxlib $found is installed, mlax pins $pinned: allowing it (MLAX_ALLOW_JAXLIB_VERSION=$found)"
  export MLAX_ALLOW_JAXLIB_VERSION="$found"
fi

status=0
step() {  # step NAME SECONDS COMMAND...: run with a time limit, remember failures
  local name="$1" limit="$2"
  shift 2
  echo
  echo "== $name"
  local t0=$SECONDS
  timeout "$limit" "$@"
  local rc=$?
  echo "-- $name: exit $rc after $((SECONDS - t0)) s"
  [ "$rc" -eq 0 ] || status=1
}

step "environment" 90 "$py" - <<'EOF'
import jax, jaxlib
import mlax
from mlax._src.backend import runtime
from mlax._src.base import jaxlib_internals as ji

print("jax", jax.__version__, "jaxlib", jaxlib.__version__, "devices", jax.devices())
print("mlax default backend:", mlax.default_backend(), mlax.devices(),
      "lowering platform:", runtime.lowering_platform(runtime.default_device()))
# The private jaxlib/JAX entry points mlax uses, on this jaxlib.
from jax._src.interpreters import pxla
print("jaxlib internals: pinned", ji.PINNED, "| C++ dispatch", ji.cpp_dispatch_available(),
      "| MeshExecutableFastpathData fields",
      getattr(getattr(pxla, "MeshExecutableFastpathData", None), "_fields", None),
      "| pxla.batched_device_put", hasattr(pxla, "batched_device_put"))
f = mlax.jit(lambda x: x * 2.0 + 1.0)
x = mlax.numpy.arange(4.0)
for _ in range(3):
    y = f(x)
print("jit result", y, "on", y.devices(), "| dispatched by",
      "Python" if getattr(f._fast, "__func__", None) is type(f)._call_python_star else "C++")
assert mlax.default_backend() == "gpu", "no GPU backend: the GPU tests would all be skipped"
EOF

step "GPU tests (pytest -m gpu test/py/test_gpu.py) and the platform plumbing" 150 \
  "$py" -m pytest test/py/test_gpu.py -q -rs -p no:cacheprovider -n 0
# -rf names each failure at the end; --durations helps size the step.
step "core test files, the GPU as default device" 300 \
  "$py" -m pytest test/py/test_devices.py test/py/test_jit.py test/py/test_dispatch.py \
  test/py/test_training.py test/py/test_linalg.py -q -rf -p no:cacheprovider -p no:benchmark \
  -n 8 --dist loadfile
step "benchmark: mlax vs JAX on the GPU (steady state)" 180 \
  "$py" bench/run.py --quick dispatch_add mlp_grad conv_layer transformer_block linear_solve

echo
[ "$status" -eq 0 ] && echo "== gpu_check: all steps passed" || echo "== gpu_check: some steps FAILED"
exit "$status"
