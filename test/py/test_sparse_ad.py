"""mlax.experimental.sparse's autodiff wrappers (grad, value_and_grad,
jacfwd, jacrev, jacobian) against jax.experimental.sparse's: derivatives
with respect to a sparse array are sparse arrays of its pattern, in its
format, eagerly and under jit."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import sparse as jsparse

import mlax
import mlax.numpy as mnp
from mlax.experimental import sparse

from _helpers import assert_tree_like

DENSE = np.array([[0., 1., 0.], [2., 0., 3.]], np.float32)
BATCHED = np.array([[[1., 0., 2.], [0., 0., 3.]], [[0., 4., 0.], [5., 0., 0.]]], np.float32)
Y = np.array([0.5, -1., 2.], np.float32)


def _as_tree(x):
    """A sparse array as {"format[shape] n_batch": buffers}, to compare (the
    key is part of the tree structure assert_tree_like compares)."""
    if isinstance(x, (sparse.JAXSparse, jsparse.JAXSparse)):
        key = f"{type(x).__name__}{list(x.shape)} n_batch={getattr(x, 'n_batch', None)}"
        return {key: tuple(x.tree_flatten()[0])}
    if isinstance(x, tuple):
        return tuple(_as_tree(e) for e in x)
    if isinstance(x, dict):
        return {k: _as_tree(v) for k, v in x.items()}
    return x


def _pair(fmt, dense, **kw):
    return (getattr(sparse, fmt).fromdense(dense, **kw),
            getattr(jsparse, fmt).fromdense(jnp.asarray(dense), **kw))


def _both(name, fun_of, args_of, *, jit=False, **kw):
    """The wrapper `name` of `fun_of(np_module)` applied to the mlax and JAX
    arguments, the mlax side under mlax.jit when `jit`."""
    m = getattr(sparse, name)(fun_of(mnp), **kw)
    j = getattr(jsparse, name)(fun_of(jnp), **kw)
    margs, jargs = args_of
    return (mlax.jit(m) if jit else m)(*margs), j(*jargs)


def _loss(np_):
    return lambda M, y: np_.sum((M @ y) ** 2)


@pytest.mark.parametrize("fmt", ["BCOO", "BCSR", "COO", "CSR"])
def test_grad_is_sparse_of_the_same_pattern(fmt):
    M, J = _pair(fmt, DENSE)
    for argnums in (0, 1, (0, 1), (1, 0), (0,)):
        m, j = _both("grad", _loss, ((M, Y), (J, Y)), argnums=argnums)
        assert_tree_like(_as_tree(m), _as_tree(j))  # f"{fmt} argnums={argnums}"


@pytest.mark.parametrize("fmt", ["BCOO", "BCSR"])
def test_jacobians_put_output_dimensions_in_batch_dimensions(fmt):
    M, J = _pair(fmt, DENSE)
    for name in ("jacfwd", "jacrev", "jacobian"):
        m, j = _both(name, lambda np_: lambda M, y: M @ y, ((M, Y), (J, Y)))
        assert_tree_like(_as_tree(m), _as_tree(j))  # f"{fmt} {name}"
        np.testing.assert_allclose(np.asarray(m.todense()), np.asarray(j.todense()))


def test_batched_bcoo_under_jit_value_and_grad_and_aux():
    M, J = _pair("BCOO", BATCHED, n_batch=1)
    m, j = _both("value_and_grad", _loss, ((M, Y), (J, Y)), jit=True)
    assert_tree_like(_as_tree(m), _as_tree(j))  # "value_and_grad"
    with_aux = lambda np_: lambda M, y: (np_.sum(M @ y), {"n": M.nse})  # noqa: E731
    m, j = _both("grad", with_aux, ((M, Y), (J, Y)), has_aux=True)
    assert_tree_like(_as_tree(m), _as_tree(j))  # "grad has_aux"
    assert m[1] == j[1] == {"n": 3} and type(m[1]["n"]) is int  # aux passes through
    m, j = _both("jacfwd", lambda np_: lambda M, y: np_.sum(M @ y, 0), ((M, Y), (J, Y)))
    assert_tree_like(_as_tree(m), _as_tree(j))  # "batched jacfwd"


def test_sparse_arguments_inside_pytrees():
    M, J = _pair("BCOO", DENSE)
    m, j = _both("grad", lambda np_: lambda d, y: np_.sum(d["a"] @ y) * d["s"],
                 (({"a": M, "s": np.float32(2)}, Y), ({"a": J, "s": np.float32(2)}, Y)))
    assert_tree_like(_as_tree(m), _as_tree(j))  # "dict argument"


def test_matches_finite_differences_on_the_pattern():
    M, _ = _pair("BCOO", DENSE)
    g = sparse.grad(_loss(mnp))(M, Y)
    data = np.asarray(M.data, np.float64)
    eps = 1e-3
    for k in range(data.size):
        d = np.zeros_like(data)
        d[k] = eps
        f = [float(_loss(mnp)(sparse.BCOO(((data + s * d).astype(np.float32), M.indices),
                                          shape=M.shape), Y)) for s in (1, -1)]
        np.testing.assert_allclose(np.asarray(g.data)[k], (f[0] - f[1]) / (2 * eps), rtol=2e-3)


def test_errors():
    M, J = _pair("BCOO", DENSE)
    # JAX's sparse.grad fails an internal assert here; mlax raises jax.grad's TypeError.
    with pytest.raises(TypeError, match="argnums=2 requires at least 3 positional"):
        sparse.grad(_loss(mnp), argnums=2)(M, Y)
    with pytest.raises(TypeError, match="Expected a callable"):
        sparse.grad(3)
    # A Jacobian with respect to a legacy COO has no batch dimensions to live
    # in (JAX's returns an invalid COO whose data does not fit its shape).
    C, _ = _pair("COO", DENSE)
    with pytest.raises(NotImplementedError, match="use BCOO or BCSR"):
        sparse.jacrev(lambda M: M @ mnp.asarray(Y))(C)
    assert sparse.jacobian is sparse.jacrev
    assert jsparse.jacobian is jsparse.jacrev
