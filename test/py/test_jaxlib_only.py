"""mlax runs on jaxlib alone: the `jax` package is a test dependency, never
a runtime one (issue 16). Each test runs mlax in a fresh process, once with
`jax` made unimportable and once with it installed but never imported, and
compares the results with JAX in this process."""
import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np
import pytest

# The program both subprocesses run: eager ops, jit (its C++ fast path with
# device, NumPy and Python-scalar arguments), grad, vmap, x64, DLPack, PRNG
# and host conversion. Its results go to an .npz for this process to check.
PROGRAM = textwrap.dedent("""
    import sys
    if BLOCK_JAX:
        sys.modules["jax"] = None  # `import jax` raises ImportError
    import numpy as np
    np.random.seed(0)
    import mlax
    import mlax.numpy as mnp
    import mlax.scipy.linalg

    out = {}
    x = mnp.arange(6.0).reshape(2, 3)
    out["eager"] = np.asarray(mnp.tanh(x) * 2 + 1)
    f = mlax.jit(lambda a, b: mnp.sin(a) * b)
    out["jit_scalar"] = np.asarray(f(x, 2.0))
    out["jit_scalar2"] = np.asarray(f(x, 3.0))  # a fast-path hit
    out["jit_numpy"] = np.asarray(f(np.ones((2, 3), np.float32), np.float32(2)))
    out["jit_misses"] = np.asarray(f.cache_misses)
    out["grad"] = np.asarray(mlax.grad(lambda a: mnp.sum(mnp.sin(a) ** 2))(x))
    out["vmap"] = np.asarray(mlax.vmap(lambda r: mnp.dot(r, r))(x))
    out["weak"] = np.asarray((x * 2.0).weak_type)
    out["repr"] = np.asarray(repr(mnp.asarray([1.5, 2.0])))
    out["dlpack_out"] = np.from_dlpack(x).copy()
    y = mlax.dlpack.from_dlpack(np.arange(4, dtype=np.int32))
    out["dlpack_in"] = np.asarray(y + 1)
    out["bf16"] = np.asarray(mnp.asarray([1.0, 2.5], mnp.bfloat16) * 2).astype(np.float32)
    out["normal"] = np.asarray(mlax.random.normal(mlax.random.key(0), (3,)))
    # LAPACK kernels (getrf, potrf, syevd, gesdd, geqrf, trsm, geev): registered
    # by mlax, not by `import jax`.
    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    out["solve"] = np.asarray(mnp.linalg.solve(a, np.ones(3, np.float32)))
    out["cholesky"] = np.asarray(mnp.linalg.cholesky(a))
    out["eigvalsh"] = np.asarray(mnp.linalg.eigvalsh(a))
    out["svdvals"] = np.asarray(mnp.linalg.svd(a, compute_uv=False))
    out["qr_r_diag"] = np.abs(np.diag(np.asarray(mnp.linalg.qr(a)[1])))
    out["triangular"] = np.asarray(mlax.scipy.linalg.solve_triangular(a, np.ones(3, np.float32)))
    out["eigvals"] = np.sort_complex(np.asarray(mnp.linalg.eigvals(a)))
    with mlax.enable_x64(True):
        g = mlax.jit(lambda a: a * 2)
        z = g(np.arange(3, dtype=np.float64))
        out["x64_dtype"] = np.asarray(str(z.dtype))
        out["x64"] = np.asarray(z)
    out["x32_dtype"] = np.asarray(str(mlax.jit(lambda a: a * 2)(np.arange(3.0)).dtype))
    out["device"] = np.asarray(str(x.device))
    out["numpy_random"] = np.asarray(np.random.rand())
    out["jax_imported"] = np.asarray(sys.modules.get("jax") is not None)
    np.savez(sys.argv[1], **out)
""")


def _run(tmp_path, block_jax: bool):
    path = tmp_path / ("blocked.npz" if block_jax else "unimported.npz")
    code = f"BLOCK_JAX = {block_jax}\n" + PROGRAM
    env = {k: v for k, v in os.environ.items() if k != "JAX_ENABLE_X64"}
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dict(np.load(path))


A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)


@pytest.fixture(scope="module")
def references():
    x = jnp.arange(6.0).reshape(2, 3)
    f = jax.jit(lambda a, b: jnp.sin(a) * b)
    np.random.seed(0)
    return {
        "eager": np.asarray(jnp.tanh(x) * 2 + 1),
        "jit_scalar": np.asarray(f(x, 2.0)),
        "jit_scalar2": np.asarray(f(x, 3.0)),
        "jit_numpy": np.asarray(f(np.ones((2, 3), np.float32), np.float32(2))),
        "grad": np.asarray(jax.grad(lambda a: jnp.sum(jnp.sin(a) ** 2))(x)),
        "vmap": np.asarray(jax.vmap(lambda r: jnp.dot(r, r))(x)),
        "weak": np.asarray((x * 2.0).weak_type),
        "repr": np.asarray(repr(jnp.asarray([1.5, 2.0]))),
        "dlpack_out": np.asarray(x),
        "dlpack_in": np.arange(4, dtype=np.int32) + 1,
        "bf16": np.asarray(jnp.asarray([1.0, 2.5], jnp.bfloat16) * 2).astype(np.float32),
        "normal": np.asarray(jax.random.normal(jax.random.key(0), (3,))),
        "solve": np.asarray(jnp.linalg.solve(A, np.ones(3, np.float32))),
        "cholesky": np.asarray(jnp.linalg.cholesky(A)),
        "eigvalsh": np.asarray(jnp.linalg.eigvalsh(A)),
        "svdvals": np.asarray(jnp.linalg.svd(A, compute_uv=False)),
        "qr_r_diag": np.abs(np.diag(np.asarray(jnp.linalg.qr(A)[1]))),
        "triangular": np.asarray(jax.scipy.linalg.solve_triangular(A, np.ones(3, np.float32))),
        "eigvals": np.sort_complex(np.asarray(jnp.linalg.eigvals(A))),
        "x64_dtype": np.asarray("float64"),
        "x64": np.arange(3, dtype=np.float64) * 2,
        "x32_dtype": np.asarray("float32"),
        "device": np.asarray(str(jax.devices("cpu")[0])),
        "numpy_random": np.asarray(np.random.rand()),
    }


@pytest.mark.parametrize("block_jax", [True, False], ids=["jax-unimportable", "jax-installed"])
def test_mlax_runs_on_jaxlib_alone(tmp_path, references, block_jax):
    got = _run(tmp_path, block_jax)
    for name, want in references.items():
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(got[name], want, rtol=1e-6, atol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(got[name], want, err_msg=name)
    # Two signatures (a weak Python scalar, then strong float32 NumPy
    # values), so two traces; the second scalar call hit the cache.
    assert int(got["jit_misses"]) == 2
    # jit, grad, vmap, eager ops, host conversion and x64 never import jax;
    # only jaxlib's DLPack import and non-NumPy dtypes (bfloat16) on the host
    # may make jaxlib import it where it is installed, and then NumPy's
    # global random state is kept (numpy_random above).
    assert not got["jax_imported"] or not block_jax


def test_common_work_does_not_import_jax(tmp_path):
    """A program that uses only NumPy dtypes and no DLPack never imports jax
    (it costs a second of start-up and draws from NumPy's random state)."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        import mlax, mlax.numpy as mnp
        x = mnp.arange(6.0).reshape(2, 3)
        f = mlax.jit(lambda a, b: mnp.sin(a) * b)
        f(x, 2.0); f(x, 3.0); f(np.ones((2, 3), np.float32), 1.0)
        mlax.grad(lambda a: mnp.sum(a ** 2))(x)
        mlax.vmap(lambda r: mnp.dot(r, r))(x)
        repr(x); np.asarray(x); float(x[0, 1]); x.block_until_ready()
        x.copy_to_host_async(); mlax.devices(); x.device
        mlax.random.uniform(mlax.random.key(1), (2,))
        print(sorted(m for m in sys.modules if m == "jax" or m.startswith("jax.")))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"
