"""jax.scipy.spatial.transform: Rotation (unit quaternions, scalar last,
batched over leading axes) and Slerp, as JAX's. Written directly on the
quaternion's last axis (no vectorize); the Euler axis sequence is static,
so its case analysis is Python."""
from __future__ import annotations

import re
import typing

import numpy as np

from mlax._src.base import dtypes
from mlax._src.numpy import linalg as np_linalg
from mlax._src.numpy.lax_numpy import asarray, concatenate, stack, where
from mlax._src.numpy.manipulation import argmax, atleast_1d, roll, searchsorted
from mlax._src.numpy.statistics import cross, diff
from mlax._src.numpy.tensor_contractions import dot, matmul
from mlax._src.numpy.ufuncs import abs as np_abs
from mlax._src.numpy.ufuncs import arctan2, cos, deg2rad, hypot, maximum, rad2deg, sin, sqrt


def _norm(v):
    return sqrt((v * v).sum(-1))


def _normalize(q):
    return q / _norm(q)[..., None]


def _compose(p, q):
    c = cross(p[..., :3], q[..., :3])
    return stack([p[..., 3] * q[..., 0] + q[..., 3] * p[..., 0] + c[..., 0],
                  p[..., 3] * q[..., 1] + q[..., 3] * p[..., 1] + c[..., 1],
                  p[..., 3] * q[..., 2] + q[..., 3] * p[..., 2] + c[..., 2],
                  p[..., 3] * q[..., 3] - p[..., 0] * q[..., 0] - p[..., 1] * q[..., 1]
                  - p[..., 2] * q[..., 2]], axis=-1)


def _check_seq(seq, exact3):
    if exact3 and len(seq) != 3:
        raise ValueError(f"Expected 3 axes, got {seq}.")
    if not exact3 and not 1 <= len(seq) <= 3:
        raise ValueError("Expected axis specification to be a non-empty string of upto 3 "
                         f"characters, got {seq}")
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError("Expected axes from `seq` to be from ['x', 'y', 'z'] or "
                         f"['X', 'Y', 'Z'], got {seq}")
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return ["xyz".index(c) for c in seq.lower()], intrinsic


def _elementary(axis, angle):
    zero = angle * 0
    parts = [zero, zero, zero, cos(angle / 2.0)]
    parts[axis] = sin(angle / 2.0)
    return stack(parts, axis=-1)


def _as_matrix(q):
    x, y, z, w = (q[..., i] for i in range(4))
    x2, y2, z2, w2 = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    rows = [[x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw)],
            [2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw)],
            [2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2]]
    return stack([stack(r, axis=-1) for r in rows], axis=-2)


def _from_matrix(m):
    tr = m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2]
    choice = argmax(stack([m[..., 0, 0], m[..., 1, 1], m[..., 2, 2], tr], axis=-1), axis=-1)
    cands = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        q = [None] * 4
        q[i] = 1 - tr + 2 * m[..., i, i]
        q[j] = m[..., j, i] + m[..., i, j]
        q[k] = m[..., k, i] + m[..., i, k]
        q[3] = m[..., k, j] - m[..., j, k]
        cands.append(stack(q, axis=-1))
    quat = stack([m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0],
                  m[..., 1, 0] - m[..., 0, 1], 1 + tr], axis=-1)
    for i in range(3):
        quat = where((choice == i)[..., None], cands[i], quat)
    return _normalize(quat)


def _from_rotvec(v, degrees):
    v = deg2rad(v) if degrees else v
    angle = _norm(v)
    a2 = angle * angle
    small = 0.5 - a2 / 48 + a2 * a2 / 3840
    scale = where(angle <= 1e-3, small, sin(angle / 2) / angle)
    return concatenate([scale[..., None] * v, cos(angle / 2)[..., None]], axis=-1)


def _as_rotvec(q, degrees):
    q = where((q[..., 3] < 0)[..., None], -q, q)
    angle = 2.0 * arctan2(_norm(q[..., :3]), q[..., 3])
    a2 = angle * angle
    small = 2 + a2 / 12 + 7 * a2 * a2 / 2880
    scale = where(angle <= 1e-3, small, angle / sin(angle / 2))
    if degrees:
        scale = rad2deg(scale)
    return scale[..., None] * q[..., :3]


def _euler(q, axes, extrinsic, degrees):
    first, third = (0, 2) if extrinsic else (2, 0)
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2
    qi, qj, qk, qw = q[..., i], q[..., j], q[..., k], q[..., 3]
    if symmetric:
        a, b, c, d = qw, qi, qj, qk * sign
    else:
        a, b, c, d = qw - qj, qi + qk * sign, qj + qw, qk * sign - qi
    eps = 1e-7
    ang = [a * 0, 2 * arctan2(hypot(c, d), hypot(a, b)), a * 0]
    case = where(np_abs(ang[1] - np.pi) <= eps, 2, 0)
    case = where(np_abs(ang[1]) <= eps, 1, case)
    half_sum, half_diff = arctan2(b, a), arctan2(d, c)
    ang[0] = where(case == 1, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    ang[first] = where(case == 0, half_sum - half_diff, ang[first])
    ang[third] = where(case == 0, half_sum + half_diff, ang[third])
    if not symmetric:
        ang[third] = ang[third] * sign
        ang[1] = ang[1] - np.pi / 2
    out = (stack(ang, axis=-1) + np.pi) % (2 * np.pi) - np.pi
    return rad2deg(out) if degrees else out


class Rotation(typing.NamedTuple):
    """A rotation (or a batch of them) as a unit quaternion (x, y, z, w)."""
    quat: typing.Any

    @classmethod
    def concatenate(cls, rotations):
        return cls(concatenate([r.quat for r in rotations]))

    @classmethod
    def from_euler(cls, seq, angles, degrees=False):
        axes, intrinsic = _check_seq(seq, exact3=False)
        angles = atleast_1d(asarray(angles))
        if degrees:
            angles = deg2rad(angles)
        out = _elementary(axes[0], angles[..., 0])
        for n in range(1, len(axes)):
            q = _elementary(axes[n], angles[..., n])
            out = _compose(out, q) if intrinsic else _compose(q, out)
        return cls(out)

    @classmethod
    def from_matrix(cls, matrix):
        return cls(_from_matrix(asarray(matrix)))

    @classmethod
    def from_mrp(cls, mrp):
        mrp = asarray(mrp)
        s = (mrp * mrp).sum(-1)[..., None] + 1
        return cls(concatenate([2 * mrp[..., :3], 2 - s], axis=-1) / s)

    @classmethod
    def from_quat(cls, quat):
        return cls(_normalize(asarray(quat)))

    @classmethod
    def from_rotvec(cls, rotvec, degrees=False):
        return cls(_from_rotvec(asarray(rotvec), degrees))

    @classmethod
    def identity(cls, num=None, dtype=float):
        assert num is None
        return cls(asarray(np.array([0.0, 0.0, 0.0, 1.0]), dtype=dtypes.canonicalize(dtype)))

    @classmethod
    def random(cls, random_key, num=None):
        raise NotImplementedError()

    def __getitem__(self, indexer):
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self):
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self.quat.shape[0]

    def __mul__(self, other):
        return Rotation.from_quat(_compose(self.quat, other.quat))

    def apply(self, vectors, inverse=False):
        m = self.as_matrix()
        if inverse:
            m = m.swapaxes(-1, -2)
        return matmul(m, asarray(vectors)[..., None])[..., 0]

    def as_euler(self, seq, degrees=False):
        axes, intrinsic = _check_seq(seq, exact3=True)
        return _euler(self.quat, axes, not intrinsic, degrees)

    def as_matrix(self):
        return _as_matrix(self.quat)

    def as_mrp(self):
        q = self.quat
        s = where(q[..., 3] < 0, -1.0, 1.0)
        return s[..., None] * q[..., :3] / (1.0 + s * q[..., 3])[..., None]

    def as_rotvec(self, degrees=False):
        return _as_rotvec(self.quat, degrees)

    def as_quat(self, canonical=False, scalar_first=False):
        q = self.quat
        if canonical:
            neg, zero = q < 0, q == 0
            flip = (neg[..., 3] | (zero[..., 3] & neg[..., 0])
                    | (zero[..., 3] & zero[..., 0] & neg[..., 1])
                    | (zero[..., 3] & zero[..., 0] & zero[..., 1] & neg[..., 2]))
            q = where(flip[..., None], -q, q)
        return roll(q, shift=1, axis=-1) if scalar_first else q

    def inv(self):
        return Rotation(self.quat * asarray(np.array([-1, -1, -1, 1]), dtype=self.quat.dtype))

    def magnitude(self):
        return 2.0 * arctan2(_norm(self.quat[..., :3]), np_abs(self.quat[..., 3]))

    def mean(self, weights=None):
        q = self.quat
        w = (asarray(np.ones(q.shape[0]), dtype=q.dtype) if weights is None
             else asarray(weights, dtype=q.dtype))
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
        if w.shape[0] != len(self):
            raise ValueError("Expected `weights` to have number of values equal to number of "
                             f"rotations, got {w.shape[0]} values and {len(self)} rotations.")
        k = dot(w[None, :] * q.T, q)
        _, v = np_linalg._np_eigh(k)
        return Rotation(v[:, -1])

    @property
    def single(self):
        return self.quat.ndim == 1


class Slerp(typing.NamedTuple):
    """Spherical linear interpolation of rotations (as jax's Slerp)."""
    times: typing.Any
    timedelta: typing.Any
    rotations: Rotation
    rotvecs: typing.Any

    @classmethod
    def init(cls, times, rotations):
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        times = asarray(times, dtype=rotations.quat.dtype)
        if times.ndim != 1:
            raise ValueError("Expected times to be specified in a 1 dimensional array, got "
                             f"{times.ndim} dimensions.")
        if times.shape[0] != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps "
                             f"given, got {len(rotations)} rotations and {times.shape[0]} "
                             "timestamps.")
        q = rotations.as_quat()
        start = Rotation(q[:-1])
        return cls(times=times, timedelta=diff(times), rotations=start,
                   rotvecs=(start.inv() * Rotation(q[1:])).as_rotvec())

    def __call__(self, times):
        t = asarray(times, dtype=self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = atleast_1d(t)
        ind = maximum(searchsorted(self.times, t) - 1, 0)
        alpha = (t - self.times[ind]) / self.timedelta[ind]
        out = self.rotations[ind] * Rotation.from_rotvec(self.rotvecs[ind] * alpha[:, None])
        return out[0] if single else out
