"""The scalar types of mlax.numpy (`mnp.float32`, `mnp.int32`, `mnp.bool_`,
...), as JAX's: usable as a dtype (`x.astype(mnp.float32)`,
`np.dtype(mnp.float32)`, `x.dtype == mnp.float32`) and callable, making an
array of that dtype (`mnp.float32(2.0)` is `Array(2., dtype=float32)`)."""
from __future__ import annotations

import numpy as np

from mlax._src.base import dtypes


class _ScalarMeta(type):
    def __hash__(cls):
        return hash(cls.dtype.type)

    def __eq__(cls, other):
        return cls is other or cls.dtype.type == other

    def __ne__(cls, other):
        return not cls == other

    def __call__(cls, x):
        from mlax._src.numpy import lax_numpy
        return lax_numpy.asarray(x, dtype=cls.dtype)

    def __instancecheck__(cls, instance):
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls):
        return f"<class 'mlax.numpy.{cls.__name__}'>"


def _make_scalar_type(name, dtype):
    return _ScalarMeta(name, (object,), {"dtype": np.dtype(dtype)})


bool_ = _make_scalar_type("bool_", dtypes.bool_)
bfloat16 = _make_scalar_type("bfloat16", dtypes.bfloat16)
float16 = _make_scalar_type("float16", np.float16)
float32 = _make_scalar_type("float32", np.float32)
float64 = _make_scalar_type("float64", np.float64)
complex64 = _make_scalar_type("complex64", np.complex64)
complex128 = _make_scalar_type("complex128", np.complex128)
int8 = _make_scalar_type("int8", np.int8)
int16 = _make_scalar_type("int16", np.int16)
int32 = _make_scalar_type("int32", np.int32)
int64 = _make_scalar_type("int64", np.int64)
uint8 = _make_scalar_type("uint8", np.uint8)
uint16 = _make_scalar_type("uint16", np.uint16)
uint32 = _make_scalar_type("uint32", np.uint32)
uint64 = _make_scalar_type("uint64", np.uint64)

# JAX's narrow dtypes (ml_dtypes' scalar types): 8- and 4-bit floats, 4-bit ints.
float8_e3m4 = _make_scalar_type("float8_e3m4", dtypes.float8_e3m4)
float8_e4m3 = _make_scalar_type("float8_e4m3", dtypes.float8_e4m3)
float8_e4m3b11fnuz = _make_scalar_type("float8_e4m3b11fnuz", dtypes.float8_e4m3b11fnuz)
float8_e4m3fn = _make_scalar_type("float8_e4m3fn", dtypes.float8_e4m3fn)
float8_e4m3fnuz = _make_scalar_type("float8_e4m3fnuz", dtypes.float8_e4m3fnuz)
float8_e5m2 = _make_scalar_type("float8_e5m2", dtypes.float8_e5m2)
float8_e5m2fnuz = _make_scalar_type("float8_e5m2fnuz", dtypes.float8_e5m2fnuz)
float8_e8m0fnu = _make_scalar_type("float8_e8m0fnu", dtypes.float8_e8m0fnu)
float4_e2m1fn = _make_scalar_type("float4_e2m1fn", dtypes.float4_e2m1fn)
int4 = _make_scalar_type("int4", dtypes.int4)
uint4 = _make_scalar_type("uint4", dtypes.uint4)
