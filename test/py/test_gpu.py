"""mlax on a GPU, and the platform plumbing that gets it there.

Tests marked `gpu` need a GPU backend (jaxlib's CUDA or ROCm plugin with a
working device: `pip install "mlax[cuda12]"`) and are skipped cleanly
without one; `pytest -m gpu` selects them. The rest run anywhere: they
check that the platform of the device reaches the lowering, that a lowering
for CUDA or ROCm calls the solver kernels JAX calls there, and that an op
with no kernel on a platform is a clear error.

Tolerances follow JAX's GPU tests: float32 matmuls may run as TF32 on a
GPU, so results are compared with JAX's on the same GPU tightly and with
NumPy's loosely; nothing assumes float64 unless it is asked for.
"""
import re

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp
from mlax._src.backend import compiler, runtime
from mlax.tools import compile_stablehlo


def _gpu_devices():
    try:
        return mlax.devices("gpu")
    except RuntimeError:
        return []


GPUS = _gpu_devices()
needs_gpu = [pytest.mark.gpu,
             pytest.mark.skipif(not GPUS, reason="no GPU backend (jaxlib CUDA/ROCm plugin)")]

rng = np.random.default_rng(0)


def _spd(n, batch=(), dtype=np.float32):
    a = rng.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


# ---------------------------------------------------------------------------
# Platform plumbing (runs anywhere)
# ---------------------------------------------------------------------------

def test_pipeline_string_carries_the_platform():
    assert compiler.lower_pipeline("cpu") == "builtin.module(convert-mlax-to-stablehlo)"
    assert compiler.lower_pipeline("cuda") == \
        "builtin.module(convert-mlax-to-stablehlo{platform=cuda})"
    assert compiler.lower_pipeline("rocm") == \
        "builtin.module(convert-mlax-to-stablehlo{platform=rocm})"


class _Client:
    def __init__(self, version):
        self.platform_version = version


class _Device:
    def __init__(self, platform, version=""):
        self.platform = platform
        self.client = _Client(version)


@pytest.mark.parametrize("platform, version, expected", [
    ("cpu", "cpu", "cpu"),
    ("gpu", "PJRT C API\ncuda 12080", "cuda"),
    ("gpu", "PJRT C API\nrocm 60300", "rocm"),
    ("tpu", "PJRT C API\nTFRT TPU v5 lite", "tpu"),
])
def test_lowering_platform_of_a_device(platform, version, expected):
    # jaxlib calls CUDA and ROCm devices 'gpu'; the client's version tells them apart.
    assert runtime.lowering_platform(_Device(platform, version)) == expected


def test_default_platform_is_what_jax_says():
    assert mlax.default_backend() == jax.default_backend()
    assert [str(d) for d in mlax.devices()] == [str(d) for d in jax.devices()]
    assert runtime.lowering_platform(runtime.default_device()) in ("cpu", "cuda", "rocm", "tpu")
    with pytest.raises(RuntimeError, match="backend 'nosuch' is not available"):
        mlax.devices("nosuch")


# (function, input, the kernels JAX calls on CUDA for it)
LINALG = {
    "eigh": (lambda a: mnp.linalg.eigh(a), _spd(4), ["syevd"]),
    "qr": (lambda a: mnp.linalg.qr(a), rng.standard_normal((5, 3)).astype(np.float32),
           ["geqrf", "orgqr"]),
    "svd": (lambda a: mnp.linalg.svd(a, full_matrices=False),
            rng.standard_normal((2, 5, 3)).astype(np.float32), ["gesvdj"]),
    "cholesky": (lambda a: mnp.linalg.cholesky(a), _spd(4, (2,)), ["potrf"]),
    "solve": (lambda a: mnp.linalg.solve(a, mnp.ones(4)), _spd(4), ["getrf"]),
}


def _lowered(fun, x, platform):
    module = mlax.make_ir(fun)(x).module
    return compiler.to_stablehlo(module, platform=platform)


@pytest.mark.parametrize("name", list(LINALG))
@pytest.mark.parametrize("platform, prefix", [("cuda", "cusolver"), ("rocm", "hipsolver")])
def test_gpu_lowering_calls_the_gpu_solver_kernels(name, platform, prefix):
    fun, x, routines = LINALG[name]
    text = _lowered(fun, x, platform)
    targets = set(re.findall(r'call_target_name = "(\w+)"', text))
    assert targets == {f"{prefix}_{r}_ffi" for r in routines}, targets
    assert "lapack" not in text
    # jaxlib parses and verifies it (compiling needs the GPU).
    assert compile_stablehlo.verify(text) == 1
    # The CPU lowering of the same function is LAPACK's.
    cpu_targets = set(re.findall(r'call_target_name = "(\w+)"', _lowered(fun, x, "cpu")))
    assert cpu_targets and all(t.startswith("lapack_") for t in cpu_targets), cpu_targets


def test_gpu_lowering_matches_jax_for_cuda():
    """The custom call mlax emits for eigh on CUDA carries the attributes
    jax's own CUDA lowering gives it (target, backend config, layouts)."""
    a = _spd(4, (3,))
    jax_text = jax.jit(lambda x: jax.lax.linalg.eigh(x, symmetrize_input=False)) \
        .trace(a).lower(lowering_platforms=("cuda",)).as_text()
    ours = _lowered(lambda x: mlax.lax.linalg.eigh(x, symmetrize_input=False), a, "cuda")
    layouts = r"(\[(?:dense<[^>]*> : tensor<\w+>(?:, )?)*\])"
    for pattern in (r"mhlo\.backend_config = (\{[^}]*\})", r"operand_layouts = " + layouts,
                    r"result_layouts = " + layouts, r"num_batch_dims = \"(\d+)\""):
        theirs = re.search(pattern, jax_text)
        mine = re.search(pattern, ours)
        assert theirs and mine and theirs.group(1) == mine.group(1), (pattern, ours)
    assert "@cusolver_syevd_ffi" in jax_text and '"cusolver_syevd_ffi"' in ours


def test_op_without_a_kernel_on_the_platform_is_a_clear_error():
    fun, x, _ = LINALG["eigh"]
    with pytest.raises(mlax.CompileError,
                       match=r"'mlax\.eigh' op has no lowering for platform 'tpu': "
                             r"its syevd kernel exists for cpu, cuda, rocm"):
        _lowered(fun, x, "tpu")


def test_jit_lowers_for_the_platform_of_its_device(monkeypatch):
    """jit asks the device for its platform and the lowering follows it: a
    device reporting a platform without solver kernels makes eigh fail to
    lower, naming that platform, before XLA sees anything."""
    asked = []

    def lowering_platform(device):
        asked.append(device)
        return "tpu"

    monkeypatch.setattr(runtime, "lowering_platform", lowering_platform)
    f = mlax.jit(lambda a: mnp.linalg.eigvalsh(a) * 2.0)
    with pytest.raises(mlax.CompileError, match=r"mlax\.eigh.*platform 'tpu'"):
        f(_spd(3))
    assert asked and all(d == runtime.default_device() for d in asked)
    dev = mlax.devices("cpu")[0]
    g = mlax.jit(lambda a: mnp.linalg.eigvalsh(a) + 1.0, device=dev)
    with pytest.raises(mlax.CompileError, match=r"platform 'tpu'"):
        g(_spd(3))
    assert asked[-1] == dev


# ---------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------

@pytest.fixture
def gpu():
    return GPUS[0]


def _gpu_test(fn):
    for mark in needs_gpu:
        fn = mark(fn)
    return fn


@_gpu_test
def test_gpu_is_the_default_device(gpu):
    assert mlax.default_backend() == "gpu" == jax.default_backend()
    assert mlax.devices() == GPUS
    assert runtime.lowering_platform(gpu) in ("cuda", "rocm")
    x = mnp.arange(4.0)
    assert x.devices() == {gpu}
    assert (mnp.sin(x) * 2).devices() == {gpu}


@_gpu_test
def test_jit_on_the_gpu_device_and_backend(gpu):
    x = rng.standard_normal((64, 32)).astype(np.float32)
    w = rng.standard_normal((32, 16)).astype(np.float32)

    def f(x, w):
        return mnp.tanh(x @ w).sum(axis=0)

    def jf(x, w):
        return jnp.tanh(x @ w).sum(axis=0)

    for jitted in (mlax.jit(f, device=gpu), mlax.jit(f, backend="gpu"), mlax.jit(f)):
        out = jitted(x, w)
        assert out.devices() == {gpu}
        # Same GPU, same XLA: JAX's numbers; NumPy's within TF32 rounding.
        np.testing.assert_allclose(np.asarray(out), np.asarray(jax.jit(jf)(x, w)),
                                   rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(out), np.tanh(x @ w).sum(0), rtol=2e-2, atol=2e-2)
    cpu = mlax.jit(f, backend="cpu")(x, w)
    assert cpu.devices() == {mlax.devices("cpu")[0]}


@_gpu_test
def test_grad_and_vmap_on_gpu(gpu):
    params = {"w": rng.standard_normal((8, 4)).astype(np.float32),
              "b": np.zeros(4, np.float32)}
    xs = rng.standard_normal((16, 8)).astype(np.float32)

    def loss(p, x, np_):
        return np_.mean(np_.tanh(x @ p["w"] + p["b"]) ** 2)

    g = mlax.jit(mlax.grad(lambda p, x: loss(p, x, mnp)))(params, xs)
    jg = jax.jit(jax.grad(lambda p, x: loss(p, x, jnp)))(params, xs)
    for k in params:
        assert g[k].devices() == {gpu}
        np.testing.assert_allclose(np.asarray(g[k]), np.asarray(jg[k]), rtol=1e-4, atol=1e-6)
    per_example = mlax.vmap(lambda x: loss(params, x[None], mnp))(xs)
    jper = jax.vmap(lambda x: loss(params, x[None], jnp))(xs)
    assert per_example.devices() == {gpu}
    np.testing.assert_allclose(np.asarray(per_example), np.asarray(jper), rtol=1e-4, atol=1e-6)


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) == np.float32 else 1e-10


@_gpu_test
@pytest.mark.parametrize("batch", [(), (3,)])
def test_eigh_on_gpu(gpu, batch):
    a = _spd(6, batch)
    w, v = mnp.linalg.eigh(a)
    assert w.devices() == {gpu}
    w, v = np.asarray(w), np.asarray(v)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), rtol=_tol(a.dtype) * 10)
    recon = v @ (w[..., None] * np.swapaxes(v, -1, -2))
    np.testing.assert_allclose(recon, a, rtol=1e-3, atol=1e-3 * np.abs(a).max())
    jw, _ = jnp.linalg.eigh(a)
    np.testing.assert_allclose(w, np.asarray(jw), rtol=1e-5, atol=1e-5)


@_gpu_test
@pytest.mark.parametrize("shape, mode", [((6, 4), "reduced"), ((6, 4), "complete"),
                                         ((2, 4, 6), "reduced")])
def test_qr_on_gpu(gpu, shape, mode):
    a = rng.standard_normal(shape).astype(np.float32)
    q, r = mnp.linalg.qr(a, mode=mode)
    assert q.devices() == {gpu}
    q, r = np.asarray(q), np.asarray(r)
    np.testing.assert_allclose(q @ r, a, rtol=1e-4, atol=1e-4)
    eye = np.eye(q.shape[-1], dtype=np.float32)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(eye, q.shape[:-2] + eye.shape),
                               atol=1e-4)
    np.testing.assert_array_equal(np.tril(r, -1), 0)
    jq, jr = jnp.linalg.qr(a, mode=mode)
    np.testing.assert_allclose(r, np.asarray(jr), rtol=1e-4, atol=1e-4)


@_gpu_test
@pytest.mark.parametrize("shape, full", [((5, 3), False), ((3, 5), True), ((2, 40, 36), False),
                                         ((1030, 1040), False)],
                         ids=["jacobi-small", "jacobi-full-wide", "jacobi-econ", "gesvd-wide"])
def test_svd_on_gpu(gpu, shape, full):
    a = rng.standard_normal(shape).astype(np.float32)
    u, s, vt = mnp.linalg.svd(a, full_matrices=full)
    assert s.devices() == {gpu}
    u, s, vt = np.asarray(u), np.asarray(s), np.asarray(vt)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-3,
                               atol=1e-4 * s.max())
    k = min(shape[-2:])
    recon = (u[..., :, :k] * s[..., None, :]) @ vt[..., :k, :]
    np.testing.assert_allclose(recon, a, atol=2e-3 * np.abs(a).max() * np.sqrt(k))
    js = jnp.linalg.svd(a, full_matrices=full, compute_uv=False)
    np.testing.assert_allclose(s, np.asarray(js), rtol=1e-4, atol=1e-5 * s.max())


@_gpu_test
def test_cholesky_and_solve_on_gpu(gpu):
    a = _spd(5, (2,))
    l = np.asarray(mnp.linalg.cholesky(a))
    np.testing.assert_allclose(l, np.linalg.cholesky(a), rtol=1e-4, atol=1e-4)
    # A failed factorization is NaN where JAX's is, on the same device.
    np.testing.assert_array_equal(np.isnan(np.asarray(mnp.linalg.cholesky(-a))),
                                  np.isnan(np.asarray(jnp.linalg.cholesky(-a))))
    b = rng.standard_normal((2, 5)).astype(np.float32)
    # A batch of vectors is a batch of one-column matrices (NumPy 2, JAX).
    x = mnp.linalg.solve(a, b[..., None])[..., 0]
    assert x.devices() == {gpu}
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a, b[..., None])[..., 0],
                               rtol=1e-3, atol=1e-4)
    big = _spd(512)
    rhs = rng.standard_normal(512).astype(np.float32)
    xs = np.asarray(mlax.jit(mnp.linalg.solve)(big, rhs))
    np.testing.assert_allclose(big @ xs, rhs, atol=2e-3 * np.abs(rhs).max())


@_gpu_test
def test_float64_linalg_on_gpu_when_asked(gpu):
    mlax.config.update("jax_enable_x64", True)
    try:
        a = _spd(6, dtype=np.float64)
        w, _ = mnp.linalg.eigh(a)
        assert w.dtype == np.float64
        np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(a), rtol=1e-10)
        s = mnp.linalg.svd(a, compute_uv=False)
        np.testing.assert_allclose(np.asarray(s), np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    finally:
        mlax.config.update("jax_enable_x64", False)


@_gpu_test
def test_device_put_and_transfers(gpu):
    cpu = mlax.devices("cpu")[0]
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = mlax.device_put(host, gpu)
    assert x.devices() == {gpu} and x.device == gpu
    np.testing.assert_array_equal(np.asarray(x), host)
    y = mlax.device_put(x, cpu)
    assert y.devices() == {cpu}
    np.testing.assert_array_equal(np.asarray(y), host)
    assert mlax.device_put(x, gpu) is x
    # As in JAX: a computation runs where its (non-default) arguments are.
    f = mlax.jit(lambda v: v * 2 + 1)
    assert f(y).devices() == {cpu}
    assert f(x).devices() == {gpu}
    np.testing.assert_array_equal(np.asarray(f(y)), np.asarray(f(x)))
    tree = mlax.device_put({"a": host, "b": [1.5]}, gpu)
    assert all(leaf.devices() == {gpu} for leaf in mlax.tree_util.tree_leaves(tree))
