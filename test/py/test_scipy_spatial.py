"""mlax.scipy.spatial.transform (Rotation, Slerp) against the installed JAX:
every constructor and conversion, composition, apply, inverse, magnitude,
mean (up to the eigenvector's sign), indexing and Slerp, batched, under
mlax.jit (rotations as pytree arguments) and a few eagerly; a gradient;
the errors JAX raises.
"""
from __future__ import annotations

import functools

import jax
import jax.scipy.spatial.transform as jst
import numpy as np
import pytest

import mlax
import mlax.scipy.spatial.transform as mst

from _helpers import assert_arrays_like, jgrad, make_input

Q = make_input((5, 4), np.float32)
V = make_input((5, 3), np.float32, seed=1)
T = np.array([0, 1, 2.5, 3, 4], np.float32)
TS = np.array([0.2, 1.7, 3.9], np.float32)
_check = functools.partial(assert_arrays_like, rtol=1e-4, atol=1e-4)


def _calls(mod):
    def f(q, v, t, ts):
        r = mod.Rotation.from_quat(q)
        out = [r.quat, r.as_matrix(), r.as_rotvec(), r.as_rotvec(degrees=True), r.as_mrp(),
               r.magnitude(), r.inv().quat, r.as_quat(canonical=True, scalar_first=True),
               r.apply(v), r.apply(v, inverse=True), (r * r[::-1]).quat, r[2].quat,
               mod.Rotation.from_matrix(r.as_matrix()).quat,
               mod.Rotation.from_rotvec(v, degrees=True).quat, mod.Rotation.from_mrp(v).quat,
               mod.Rotation.from_euler("x", v[0, 0]).quat,
               mod.Rotation.concatenate([r, r[:2]]).quat,
               mod.Slerp.init(t, r)(ts).quat, mod.Slerp.init(t, r)(ts[1]).quat]
        for seq in ("xyz", "ZXZ", "yxy", "XZY"):
            out += [r.as_euler(seq), mod.Rotation.from_euler(seq, v, degrees=True).quat]
        return tuple(out)
    return f


def test_rotation_jit():
    _check(mlax.jit(_calls(mst))(Q, V, T, TS), jax.jit(_calls(jst))(Q, V, T, TS))


def test_eager_pytree_mean_grad():
    r, j = mst.Rotation.from_quat(Q), jst.Rotation.from_quat(Q)
    _check((r.as_matrix(), r.as_euler("xyz"), mst.Rotation.identity().quat, len(r) * r.quat),
           (j.as_matrix(), j.as_euler("xyz"), jst.Rotation.identity().quat, len(j) * j.quat))
    _check((mlax.jit(lambda rot, v: rot.apply(v))(r, V),), (j.apply(V),))
    m, jm = np.asarray(r.mean(np.arange(1.0, 6.0)).quat), np.asarray(j.mean(np.arange(1.0, 6.0)).quat)
    np.testing.assert_allclose(abs(m @ jm), 1.0, rtol=1e-4)

    def loss(mod):
        return lambda v: mod.Rotation.from_rotvec(v).apply(V[::-1]).sum() + \
            mod.Rotation.from_rotvec(v).magnitude().sum()
    _check((mlax.grad(loss(mst))(V),), (jgrad(loss(jst))(V),))


@pytest.mark.parametrize("call", [
    lambda m: m.Rotation.from_euler("xyzx", V), lambda m: m.Rotation.from_euler("xYz", V),
    lambda m: m.Rotation.from_euler("xxz", V), lambda m: m.Rotation.from_quat(Q).as_euler("xy"),
    lambda m: m.Rotation.from_quat(Q[0])[0], lambda m: len(m.Rotation.from_quat(Q[0])),
    lambda m: m.Rotation.from_quat(Q).mean(np.ones(3)),
    lambda m: m.Rotation.random(None),
    lambda m: m.Slerp.init(T, Q), lambda m: m.Slerp.init(T[:3], m.Rotation.from_quat(Q)),
    lambda m: m.Slerp.init(T, m.Rotation.from_quat(Q))(np.ones((2, 2)))], ids=lambda c: "")
def test_errors(call):
    with pytest.raises(Exception) as theirs:
        call(jst)
    with pytest.raises(theirs.type):
        call(mst)
