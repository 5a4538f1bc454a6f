"""Values that decide shapes inside an eager transformation, against JAX.

JAX's `grad`, `jvp`, `jacfwd`, ... called outside jit trace on concrete
primals, and `core.concrete_or_error` reads them: `x[x > 0]`, `nonzero`,
`unique`, `repeat` by an array, a shape computed from values all work there
(the value read is a constant; gradients flow through what stays traced).
mlax's eager transformations trace on known values too; these functions read
them (`core.concretize`) instead of raising a concretization error. Under jit
and vmap the values are abstract and both libraries still refuse.
"""
from __future__ import annotations

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import mlax
import mlax.numpy as mnp

X = np.array([1.0, -2.0, 3.0, 0.5], np.float32)

# name -> f(L, np_) giving the function of x to transform.
CASES = {
    "mask getitem": lambda L, n: lambda x: x[x > 0].sum(),
    "mask of a sorted copy": lambda L, n: lambda x: n.sort(x)[n.sort(x) > 0].sum(),
    "mean of masked": lambda L, n: lambda x: n.mean(x[x > 0] ** 2),
    "isin mask": lambda L, n: lambda x: x[n.isin(x, x[:2])].sum(),
    "at[mask].set": lambda L, n: lambda x: x.at[x > 0].set(0.).sum() + (x * x).sum(),
    "nonzero": lambda L, n: lambda x: x[n.nonzero(x > 0)].sum(),
    "argwhere": lambda L, n: lambda x: x[n.argwhere(x > 0)[:, 0]].sum(),
    "flatnonzero": lambda L, n: lambda x: (x[n.flatnonzero(x)] ** 2).sum(),
    "where(cond)": lambda L, n: lambda x: x[n.where(x > 0)].sum(),
    "unique": lambda L, n: lambda x: n.unique(x).sum() + (x * x).sum(),
    "unique counts": lambda L, n: lambda x: n.unique(n.round(x), return_counts=True)[1].sum()
    * x.sum(),
    "union1d": lambda L, n: lambda x: n.union1d(x, x).sum() + x.sum(),
    "setdiff1d": lambda L, n: lambda x: n.setdiff1d(x, x[:1]).sum() + x.sum(),
    "intersect1d": lambda L, n: lambda x: n.intersect1d(x, x[:2]).sum() + x.sum(),
    "compress": lambda L, n: lambda x: n.compress(x > 0, x ** 2).sum(),
    "extract": lambda L, n: lambda x: n.extract(x > 0, x).sum(),
    "repeat by array": lambda L, n: lambda x: (n.repeat(x, (x > 0).astype(int) + 1) ** 2).sum(),
    "split at array": lambda L, n: lambda x: n.split(x, n.array([1, 3]))[1].sum(),
    "delete by mask": lambda L, n: lambda x: n.delete(x, x > 0).sum(),
    "bincount length": lambda L, n: lambda x: n.bincount((x > 0).astype(int) * 3,
                                                         weights=x).sum(),
    "reshape to a computed shape": lambda L, n: lambda x: (x.reshape(((x > 0).sum() + 1, -1))
                                                           ** 2).sum(),
    "zeros of a computed size": lambda L, n: lambda x: n.zeros((x > 0).sum()).sum() + x.sum(),
    "arange of a computed size": lambda L, n: lambda x: (x[:3] * n.arange((x > 0).sum())).sum(),
    "tile by a computed count": lambda L, n: lambda x: n.tile(x, (x > 0).sum()).sum(),
    "pad by a computed width": lambda L, n: lambda x: (n.pad(x, (x > 0).sum()) ** 2).sum(),
    "trim_zeros": lambda L, n: lambda x: n.trim_zeros(x * (x > 0)).sum(),
    "ravel_multi_index": lambda L, n: lambda x: x[n.ravel_multi_index(
        ((x > 0).astype(int),), (4,), mode="raise")].sum(),
    "one_hot of a computed size": lambda L, n: lambda x: (L.nn.one_hot(
        n.array([0, 1]), (x > 0).sum()) * 1.).sum() + x.sum(),
    "segment_sum without num_segments": lambda L, n: lambda x: L.ops.segment_sum(
        x ** 2, (x > 0).astype(int)).sum(),
    "slice to a computed count": lambda L, n: lambda x: x[:(x > 0).sum()].sum(),
    "random.permutation of a computed n": lambda L, n: lambda x: x.sum() * L.random.permutation(
        L.random.PRNGKey(0), (x > 0).sum()).sum(),
    "random.choice from a computed n": lambda L, n: lambda x: x.sum() * L.random.choice(
        L.random.PRNGKey(0), (x > 0).sum(), (2,)).sum(),
    "random.normal of a computed shape": lambda L, n: lambda x: x.sum() * L.random.normal(
        L.random.PRNGKey(0), ((x > 0).sum(),)).sum(),
    "sum over a computed axis": lambda L, n: lambda x: n.outer(x, x).sum(
        axis=(x > 0).sum() - 3).sum(),
    "moveaxis to a computed axis": lambda L, n: lambda x: n.moveaxis(
        n.outer(x, x), 0, (x > 0).sum() - 2)[0].sum(),
    # An integer or bool result carries no derivative: JAX gives it as a
    # plain array, which NumPy, float() and tolist() read.
    "int and bool results as plain values": lambda L, n: lambda x: x.sum() * np.asarray(
        x > 0).sum() * float((x > 0).sum()) + len((x > 0).tolist()),
}


def _values(tree):
    return jax.tree_util.tree_leaves(jax.tree_util.tree_map(np.asarray, tree))


@pytest.mark.parametrize("name", list(CASES))
def test_grad_reads_known_values_as_jax(name):
    make = CASES[name]
    got = mlax.value_and_grad(make(mlax, mnp))(mnp.asarray(X))
    want = jax.value_and_grad(make(jax, jnp))(jnp.asarray(X))
    for g, w in zip(_values(got), _values(want), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
        assert g.dtype == w.dtype


@pytest.mark.parametrize("transform", ["jacfwd", "jacrev", "hessian"])
@pytest.mark.parametrize("name", ["mask getitem", "nonzero", "repeat by array",
                                  "reshape to a computed shape"])
def test_other_eager_transformations(transform, name):
    make = CASES[name]
    got = getattr(mlax, transform)(make(mlax, mnp))(mnp.asarray(X))
    want = getattr(jax, transform)(make(jax, jnp))(jnp.asarray(X))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)


def test_jvp_reads_known_mask():
    f = CASES["mask of a sorted copy"]
    got = mlax.jvp(f(mlax, mnp), (mnp.asarray(X),), (mnp.ones(4),))
    want = jax.jvp(f(jax, jnp), (jnp.asarray(X),), (jnp.ones(4),))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)


def test_gradient_matches_finite_differences():
    f = CASES["mean of masked"](mlax, mnp)
    x = X.astype(np.float64)
    g = np.asarray(mlax.grad(f)(mnp.asarray(X)))
    eps = 1e-3
    fd = [(float(f(mnp.asarray((x + eps * e).astype(np.float32))))
           - float(f(mnp.asarray((x - eps * e).astype(np.float32))))) / (2 * eps)
          for e in np.eye(4)]
    np.testing.assert_allclose(g, fd, rtol=1e-2, atol=1e-3)


def test_floating_values_still_refuse_conversion():
    # A float value may carry a derivative: converting it would silently
    # leave the differentiated computation, so both libraries refuse.
    for L, errors in ((mlax, mlax.errors), (jax, jax.errors)):
        with pytest.raises(errors.ConcretizationTypeError):
            L.grad(lambda x: float(x.sum()) * x)(1.)
        with pytest.raises(errors.TracerArrayConversionError):
            L.grad(lambda x: np.asarray(x) * x)(1.)
        with pytest.raises(errors.TracerArrayConversionError):
            L.jit(lambda x: np.asarray(x > 0))(1.)


# Abstract values (jit, vmap) are still refused, with the class JAX raises.
@pytest.mark.parametrize("name,error", [
    ("mask getitem", mlax.errors.NonConcreteBooleanIndexError),
    ("nonzero", mlax.errors.ConcretizationTypeError),
    ("unique", mlax.errors.ConcretizationTypeError),
    ("repeat by array", mlax.errors.ConcretizationTypeError),
    ("bincount length", mlax.errors.ConcretizationTypeError),
    ("slice to a computed count", IndexError),
])
def test_abstract_values_still_refused(name, error):
    make = CASES[name]
    with pytest.raises(error):
        mlax.jit(make(mlax, mnp))(mnp.asarray(X))
    with pytest.raises(error):
        mlax.vmap(make(mlax, mnp))(mnp.asarray(np.stack([X, X])))
    with pytest.raises(error):
        mlax.jit(mlax.grad(make(mlax, mnp)))(mnp.asarray(X))
    # JAX refuses the same programs with the same class.
    with pytest.raises(getattr(jax.errors, error.__name__, error)):
        jax.jit(make(jax, jnp))(jnp.asarray(X))
