"""FFT: mlax.lax.fft and mlax.numpy.fft against jax.lax.fft / jax.numpy.fft.

Every transform over shapes, axes, n/s padding and truncation and the three
norms, for complex and real inputs (64-bit ones under x64), eagerly and under
jit; vmap against jax.vmap; errors. Complex values carry no derivatives in
mlax yet, so differentiating through an fft is an error (not a silent zero).
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mlax
import mlax.lax as L
import mlax.numpy as mnp
from _helpers import jax_outcomes, jgrad, jjvp, jvmap, pairwise, run
from _helpers import standard_normal as data

MODES = ["eager", "jit"]



def close(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    wide = got.dtype in (np.float64, np.complex128)
    tol = 1e-10 if wide else 2e-5
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


# ---------------------------------------------------------------------------
# lax.fft
# ---------------------------------------------------------------------------

LAX_CASES = [
    ("FFT", (8,), (8,), np.complex64),
    ("FFT", (3, 5), (5,), np.complex64),
    ("FFT", (2, 3, 4), (3, 4), np.complex64),
    ("FFT", (2, 2, 3, 4), (2, 3, 4), np.complex64),
    ("IFFT", (3, 6), (6,), np.complex64),
    ("IFFT", (4, 5), (4, 5), np.complex64),
    ("RFFT", (8,), (8,), np.float32),
    ("RFFT", (3, 7), (7,), np.float32),
    ("RFFT", (2, 4, 6), (4, 6), np.float32),
    ("RFFT", (2, 3, 4, 5), (3, 4, 5), np.float32),
    ("IRFFT", (5,), (8,), np.complex64),
    ("IRFFT", (3, 4), (7,), np.complex64),
    ("IRFFT", (2, 4, 4), (4, 6), np.complex64),
    ("IRFFT", (2, 3, 3), (2, 3, 4), np.complex64),
    ("FFT", (3, 4), (4,), np.float32),     # real input is made complex
    ("IFFT", (3, 4), (4,), np.int32),
]


def _lax_input(shape, dtype):
    return data(shape, dtype) if dtype != np.int32 else np.arange(np.prod(shape),
                                                                   dtype=dtype).reshape(shape)


# JAX's results of each table of calls in one jitted program (jax_outcomes).
LAX_TABLE = [(lambda a, kind=kind, lengths=lengths: jax.lax.fft(a, kind, lengths),
              (_lax_input(shape, dtype),), {}) for kind, shape, lengths, dtype in LAX_CASES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind,shape,lengths,dtype", LAX_CASES)
def test_lax_fft(kind, shape, lengths, dtype, mode):
    x = _lax_input(shape, dtype)
    got = run(lambda a: L.fft(a, kind, lengths), (x,), mode)
    want = jax_outcomes(LAX_TABLE)[LAX_CASES.index((kind, shape, lengths, dtype))]
    close(got, want)


@pytest.mark.parametrize("kind", [L.FftType.FFT, jax.lax.FftType.FFT, 0, "fft"])
def test_lax_fft_type_spellings(kind):
    x = data((4,), np.complex64)
    close(L.fft(x, kind, (4,)), jax.lax.fft(x, "FFT", (4,)))
    assert L.FftType(2) is L.FftType.RFFT


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind,shape,lengths,dtype", [
    ("FFT", (3, 5), (5,), np.complex128), ("IFFT", (4, 5), (4, 5), np.complex128),
    ("RFFT", (2, 4, 6), (4, 6), np.float64), ("IRFFT", (3, 4), (7,), np.complex128),
    ("FFT", (4,), (4,), np.float64)])
def test_lax_fft_x64(x64, kind, shape, lengths, dtype, mode):
    x = data(shape, dtype)
    got = run(lambda a: L.fft(a, kind, lengths), (x,), mode)
    close(got, jax.lax.fft(x, kind, lengths))


# ---------------------------------------------------------------------------
# jnp.fft
# ---------------------------------------------------------------------------

NORMS = [None, "backward", "ortho", "forward"]
NORMS_ND = [None, "ortho", "forward"]  # "backward" is None's spelling (checked in 1-D)


def _fft_table(names, grid, shape_of, call):
    """{name: a jax_outcomes table of call(jnp.fft.<name>, x, *case) for each
    case of `grid` (mode, the last entry, dropped), x of shape_of(name, case)}."""
    return {name: [(lambda a, f=getattr(jnp.fft, name), c=case[:-1]: call(f, a, *c),
                    (data(shape_of(name, case), np.float32 if name.startswith("rfft")
                          else np.complex64),), {}) for case in grid] for name in names}


# Axis, length, norm and mode are independent options: every pair of their
# values is tested (pairwise), for each function.
ONE_D = pairwise([-1, 0, 1], [None, 5, 8, 11], NORMS, MODES)
ONE_D_TABLES = _fft_table(["fft", "ifft", "rfft", "irfft"], ONE_D, lambda name, c: (6, 8, 3),
                          lambda f, a, axis, n, norm: f(a, n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("axis,n,norm,mode", ONE_D)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft"])
def test_one_d(name, axis, n, norm, mode):
    dtype = np.float32 if name == "rfft" else np.complex64
    x = data((6, 8, 3), dtype)
    got = run(lambda a: getattr(mnp.fft, name)(a, n=n, axis=axis, norm=norm), (x,), mode)
    close(got, jax_outcomes(ONE_D_TABLES[name])[ONE_D.index((axis, n, norm, mode))])


@pytest.mark.parametrize("name", ["fft", "ifft", "irfft"])
def test_one_d_real_input(name):
    x = data((4, 6), np.float32)
    close(getattr(mnp.fft, name)(x), getattr(jnp.fft, name)(x))


def _s_axes_norm(f, a, s_axes, norm):
    return f(a, s=s_axes[0], axes=s_axes[1], norm=norm)


TWO_D = pairwise(
    [(None, (-2, -1)), ((4, 6), (-2, -1)), ((3, 9), (0, 2)), (None, (2, 0)), ((5, 4), (1, 0))],
    NORMS_ND, MODES)
TWO_D_TABLES = _fft_table(["fft2", "ifft2", "rfft2", "irfft2"], TWO_D,
                          lambda name, c: (5, 6, 7), _s_axes_norm)


@pytest.mark.parametrize("s_axes,norm,mode", TWO_D)
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_two_d(name, s_axes, norm, mode):
    s, axes = s_axes
    dtype = np.float32 if name == "rfft2" else np.complex64
    x = data((5, 6, 7), dtype)
    got = run(lambda a: getattr(mnp.fft, name)(a, s=s, axes=axes, norm=norm), (x,), mode)
    close(got, jax_outcomes(TWO_D_TABLES[name])[TWO_D.index((s_axes, norm, mode))])


def _n_d_shape(name, case):
    axes = case[0][1]
    return (3, 4, 5) if axes is None or max(axes) < 3 else (2, 3, 4, 5)


N_D = pairwise(
    [(None, None), ((4, 6, 8), None), ((3, 5), None), (None, (0,)), ((6,), (-2,)),
     (None, (2, 0, 1)), ((2, 3, 4), (0, 1, 2)), ((7, 2), (1, 3))], NORMS_ND, MODES)
N_D_TABLES = _fft_table(["fftn", "ifftn", "rfftn", "irfftn"], N_D, _n_d_shape, _s_axes_norm)


@pytest.mark.parametrize("s_axes,norm,mode", N_D)
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_n_d(name, s_axes, norm, mode):
    s, axes = s_axes
    dtype = np.float32 if name == "rfftn" else np.complex64
    x = data(_n_d_shape(name, (s_axes,)), dtype)
    got = run(lambda a: getattr(mnp.fft, name)(a, s=s, axes=axes, norm=norm), (x,), mode)
    close(got, jax_outcomes(N_D_TABLES[name])[N_D.index((s_axes, norm, mode))])


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "fft2", "irfft2", "fftn",
                                  "rfftn"])
def test_x64(x64, name):
    dtype = np.float64 if name.startswith("rfft") else np.complex128
    x = data((4, 6, 5), dtype)
    got = mlax.jit(getattr(mnp.fft, name))(x)
    close(got, jax.jit(getattr(jnp.fft, name))(x))  # one compile (eagerly, one per primitive)


def test_roundtrip():
    x = data((3, 8), np.float32)
    z = data((4, 4), np.complex64)
    # JAX's two in one jitted program
    want_x, want_z = jax.jit(lambda x, z: (jnp.fft.irfft(jnp.fft.rfft(x), n=8),
                                           jnp.fft.ifftn(jnp.fft.fftn(z))))(x, z)
    close(mnp.fft.irfft(mnp.fft.rfft(x), n=8), want_x)
    close(mnp.fft.ifftn(mnp.fft.fftn(z)), want_z)


# ---------------------------------------------------------------------------
# helpers: fftfreq, rfftfreq, fftshift, ifftshift
# ---------------------------------------------------------------------------

FREQ_NS, FREQ_DS = [1, 2, 7, 8], [1.0, 0.25]


@functools.lru_cache(maxsize=None)
def _jax_freqs():
    """JAX's fftfreq and rfftfreq of every (n, d): one jitted program
    (eagerly, each primitive of each call is its own compile)."""
    return jax.jit(lambda: {(n, d): (jnp.fft.fftfreq(n, d), jnp.fft.rfftfreq(n, d))
                            for n in FREQ_NS for d in FREQ_DS})()


@pytest.mark.parametrize("n", FREQ_NS)
@pytest.mark.parametrize("d", FREQ_DS)
def test_fftfreq(n, d):
    want, want_r = _jax_freqs()[n, d]
    close(mnp.fft.fftfreq(n, d), want)
    close(mnp.fft.rfftfreq(n, d), want_r)


def test_fftfreq_x64(x64):
    close(mnp.fft.fftfreq(6, 0.5), jax.jit(lambda: jnp.fft.fftfreq(6, 0.5))())


SHIFT_AXES = [None, 0, 1, (0, 1), (-1,), ()]
SHIFT_SHAPES = [(5, 6), (4, 7)]
SHIFT_TABLE = [(lambda a, f=getattr(jnp.fft, name), axes=axes: f(a, axes=axes),
                (data(shape, np.float32),), {})
               for shape in SHIFT_SHAPES for axes in SHIFT_AXES
               for name in ("fftshift", "ifftshift")]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axes", SHIFT_AXES)
@pytest.mark.parametrize("shape", SHIFT_SHAPES)
def test_shift(shape, axes, mode):
    x = data(shape, np.float32)
    first = 2 * (SHIFT_SHAPES.index(shape) * len(SHIFT_AXES) + SHIFT_AXES.index(axes))
    for k, name in enumerate(("fftshift", "ifftshift")):
        got = run(lambda a: getattr(mnp.fft, name)(a, axes=axes), (x,), mode)
        close(got, jax_outcomes(SHIFT_TABLE)[first + k])


# ---------------------------------------------------------------------------
# vmap
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind,shape,lengths,dtype", [
    ("FFT", (3, 5), (5,), np.complex64), ("IFFT", (2, 3, 4), (3, 4), np.complex64),
    ("RFFT", (3, 8), (8,), np.float32), ("IRFFT", (3, 2, 5), (2, 8), np.complex64)])
@pytest.mark.parametrize("in_axis", [0, 1])
def test_vmap_lax_fft(kind, shape, lengths, dtype, in_axis):
    x = data((4,) + shape, dtype)
    x = np.moveaxis(x, 0, in_axis)
    f = lambda a: L.fft(a, kind, lengths)  # noqa: E731
    close(mlax.vmap(f, in_axes=in_axis)(x), jvmap(lambda a: jax.lax.fft(a, kind, lengths),
                                                  in_axes=in_axis)(x))


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fft2", "ifftn"])
def test_vmap_numpy_fft(name):
    dtype = np.float32 if name == "rfft" else np.complex64
    x = data((3, 4, 6), dtype)
    for in_axis in (0, 2):
        close(mlax.vmap(getattr(mnp.fft, name), in_axes=in_axis)(x),
              jvmap(getattr(jnp.fft, name), in_axes=in_axis)(x))


def test_jit_of_vmap():
    x = data((3, 4, 8), np.float32)
    f = mlax.jit(mlax.vmap(lambda a: mnp.fft.irfft(mnp.fft.rfft2(a), n=8)))
    close(f(x), jvmap(lambda a: jnp.fft.irfft(jnp.fft.rfft2(a), n=8))(x))


# ---------------------------------------------------------------------------
# derivatives: JAX's fft rules, through complex values
# ---------------------------------------------------------------------------

# (name, input shape, input is complex): a real loss of each transform, with
# complex weights so that both parts of the cotangent matter.
FFT_DERIVATIVES = [("fft", (8,), True), ("ifft", (8,), True), ("rfft", (8,), False),
                   ("irfft", (5,), True), ("rfft2", (4, 6), False), ("irfft2", (4, 4), True)]


@pytest.mark.parametrize("transform", ["grad", "jvp"])
@pytest.mark.parametrize("name, shape, is_complex", FFT_DERIVATIVES,
                         ids=[c[0] for c in FFT_DERIVATIVES])
def test_derivatives_through_fft_are_jaxs(name, shape, is_complex, transform):
    x = data(shape, np.complex64 if is_complex else np.float32)
    t = data(shape, np.complex64 if is_complex else np.float32, seed=1)
    out_shape = jax.eval_shape(getattr(jnp.fft, name), x).shape
    w = data(out_shape, np.complex64, seed=2)

    def loss(m):
        return lambda a: m.real(m.sum(getattr(m.fft, name)(a) * w))

    if transform == "grad":
        close(mlax.grad(loss(mnp))(x), jgrad(loss(jnp))(x))
    else:
        got, want = mlax.jvp(loss(mnp), (x,), (t,)), jjvp(loss(jnp), (x,), (t,))
        close(got[0], want[0])
        close(got[1], want[1])


def test_grad_of_fft_free_path_still_works():
    # A complex value that the seeded output does not depend on is fine.
    def f(x):
        aux = mnp.fft.rfft(x)
        return mnp.sum(x * x), aux

    x = data((8,), np.float32)
    g, aux = mlax.grad(f, has_aux=True)(x)
    close(g, 2 * x)
    close(aux, jnp.fft.rfft(x))


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

def test_errors():
    z = data((4, 4), np.complex64)
    r = data((4, 4), np.float32)
    with pytest.raises(ValueError, match="unknown fft_type"):
        L.fft(z, "DCT", (4,))
    with pytest.raises(ValueError, match="1 to 3 entries"):
        L.fft(z, "FFT", ())
    with pytest.raises(ValueError, match="1 to 3 entries"):
        L.fft(data((1, 1, 1, 1), np.complex64), "FFT", (1, 1, 1, 1))
    with pytest.raises(ValueError, match="positive"):
        L.fft(z, "FFT", (0,))
    with pytest.raises(ValueError, match="fewer than"):
        L.fft(z, "FFT", (4, 4, 4))
    with pytest.raises(ValueError, match="trailing dimensions"):
        L.fft(z, "FFT", (5,))
    with pytest.raises(ValueError, match="trailing dimensions"):
        L.fft(z, "IRFFT", (4,))
    with pytest.raises(TypeError, match="real operand"):
        L.fft(z, "RFFT", (4,))
    for name in ("rfft", "rfft2", "rfftn", "ihfft"):  # (JAX's ValueError)
        arg = z if name != "rfft2" else data((2, 2), np.complex64)
        with pytest.raises(ValueError, match="only real valued inputs"):
            getattr(jax.numpy.fft, name)(arg)
        with pytest.raises(ValueError, match="only real valued inputs"):
            getattr(mnp.fft, name)(arg)
    with pytest.raises(ValueError, match="repeated axes"):
        mnp.fft.fftn(z, axes=(0, 0))
    with pytest.raises(ValueError, match="only 1D, 2D and 3D"):
        mnp.fft.fftn(data((1, 1, 1, 1), np.complex64))
    with pytest.raises(ValueError, match="different lengths"):
        mnp.fft.fftn(z, s=(4,), axes=(0, 1))
    with pytest.raises(ValueError, match="invalid norm"):
        mnp.fft.fft(z, norm="sideways")
    with pytest.raises(ValueError, match="out of bounds"):
        mnp.fft.fft(r, axis=2)
    with pytest.raises(ValueError, match="2 axes"):
        mnp.fft.fft2(z, axes=(0,))
    with pytest.raises(ValueError, match="non-negative"):
        mnp.fft.fft(z, n=-1)
    with pytest.raises(ValueError, match="data points"):
        mnp.fft.irfft(data((1,), np.complex64))


# ---------------------------------------------------------------------------
# hfft, ihfft
# ---------------------------------------------------------------------------

HFFT = pairwise([-1, 0], [None, 4, 7, 12], NORMS, MODES)
HFFT_TABLE = [(lambda a, f=f, c=c: f(a, n=c[1], axis=c[0], norm=c[2]), (data((5, 6), dtype),), {})
              for c in HFFT for f, dtype in ((jnp.fft.hfft, np.complex64),
                                             (jnp.fft.ihfft, np.float32))]


@pytest.mark.parametrize("axis,n,norm,mode", HFFT)
def test_hfft_ihfft(axis, n, norm, mode):
    i = HFFT.index((axis, n, norm, mode))
    z = data((5, 6), np.complex64)
    got = run(lambda a: mnp.fft.hfft(a, n=n, axis=axis, norm=norm), (z,), mode)
    close(got, jax_outcomes(HFFT_TABLE)[2 * i])
    x = data((5, 6), np.float32)
    got = run(lambda a: mnp.fft.ihfft(a, n=n, axis=axis, norm=norm), (x,), mode)
    close(got, jax_outcomes(HFFT_TABLE)[2 * i + 1])


def test_hfft_x64(x64):
    z = data((3, 5), np.complex128)
    want, want_i = jax.jit(lambda z: (jnp.fft.hfft(z), jnp.fft.ihfft(z.real)))(z)  # JAX's, jitted
    close(mnp.fft.hfft(z), want)
    close(mnp.fft.ihfft(z.real), want_i)
