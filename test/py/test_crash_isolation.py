"""The public API on good and bad input, run in a child process: a segfault
or an abort there (MLIR's C++ and jaxlib abort on some misuses) is reported
as this test failing, with the child's output, instead of killing pytest."""
from __future__ import annotations

import subprocess
import sys

SMOKE = r'''
import os, sys, tempfile
import numpy as np
import mlax, mlax.numpy as mnp, mlax.lax as lax
from mlax.tools import opt

done = []

def expect(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc:
        done.append(fn)
        return
    except Exception as e:
        raise AssertionError(f"{fn}: expected {exc.__name__}, got {type(e).__name__}: {e}")
    raise AssertionError(f"{fn}: expected {exc.__name__}, nothing raised")

x = np.arange(6, dtype=np.float32).reshape(2, 3)

# Good input: jit, grad, vmap, a few ops.
f = mlax.jit(lambda a: mnp.sin(a) @ mnp.ones((3, 2)) + 1)
np.testing.assert_allclose(np.asarray(f(x)), np.sin(x) @ np.ones((3, 2)) + 1, rtol=1e-5)
g = mlax.grad(lambda a: mnp.sum(mnp.tanh(a) ** 2))
np.testing.assert_allclose(np.asarray(g(x)), 2 * np.tanh(x) / np.cosh(x) ** 2, rtol=1e-4,
                           atol=1e-5)
v = mlax.vmap(lambda r: mnp.cumsum(r) * r[0])
np.testing.assert_allclose(np.asarray(v(x)), np.cumsum(x, 1) * x[:, :1], rtol=1e-6)
np.testing.assert_array_equal(np.asarray(mnp.sort(-x, axis=None)), np.sort(-x, axis=None))
np.testing.assert_array_equal(np.asarray(mnp.asarray(x).at[0, 1].add(5)),
                              x + np.array([[0, 5, 0], [0, 0, 0]], np.float32))
done.append("good")

# Bad input: every call raises a Python exception, none crashes.
expect(TypeError, lambda: mnp.add(x, np.ones((4, 5))))  # same-rank mismatch: TypeError, as JAX
expect(ValueError, lambda: mnp.reshape(x, (4, 2)))
expect(TypeError, lambda: lax.add(x, np.ones(3, np.float32)))
expect(TypeError, lambda: lax.add(x, x.astype(np.int32)))
expect(IndexError, lambda: mnp.asarray(x)[0, 0, 0])
expect(IndexError, lambda: mnp.asarray(x)[..., ...])
expect(ValueError, lambda: mnp.sum(x, axis=5))
expect(TypeError, lambda: mnp.concatenate([x, np.ones((2, 2, 2), np.float32)]))
expect(TypeError, lambda: mlax.jit(lambda a: a @ a)(x))  # as JAX
expect(TypeError, lambda: mlax.grad(lambda a: a)(x))  # non-scalar output
expect(TypeError, lambda: mlax.grad(lambda a: mnp.sum(a))(np.arange(3)))  # integer input
expect(ValueError, lambda: mlax.vmap(lambda a: a)(np.float32(1)))  # 0-d under vmap
expect(ValueError, lambda: mlax.vmap(lambda a, b: a + b)(x, np.ones((3, 3), np.float32)))
expect(TypeError, lambda: mlax.jit(lambda a: float(a))(x))  # tracer misuse
expect(TypeError, lambda: mlax.jit(lambda a: a if a[0, 0] > 0 else -a)(x))
expect(TypeError, lambda: mlax.jit(3))
expect(ValueError, lambda: mlax.jit(lambda a: a, passes=["no-such-pass"]))
expect(mlax.CompileError, lambda: mlax.jit(lambda a: a, passes=[lambda m: 1 / 0])(x))

# Malformed IR through the Python driver: exit status 1, no crash.
bad = ["module { func.func @f( }",
       "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> { return %a : tensor<2xf32> }",
       "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
       "  %0 = mlax.add %a, %a : tensor<3xf32>\n  return %0 : tensor<2xf32>\n}",
       "\x00\xff garbage"]
for i, text in enumerate(bad):
    path = os.path.join(tempfile.mkdtemp(), f"bad{i}.mlir")
    with open(path, "w", errors="replace") as fh:
        fh.write(text)
    assert opt.main([path, "--pass", "mlax-simplify-pipeline"]) == 1, text
    done.append(path)
print("ok", len(done))
'''


def test_public_api_smoke_in_a_child_process():
    proc = subprocess.run([sys.executable, "-c", SMOKE], capture_output=True, text=True,
                          timeout=300)
    out = proc.stdout + proc.stderr[-4000:]
    assert proc.returncode == 0, f"child exited with {proc.returncode} " \
        f"(negative: killed by signal {-proc.returncode})\n{out}"
    assert "ok 23" in proc.stdout, out
