"""mlax's implementation, in layers that import only downward.

Each subpackage is one layer; a module may import from its own layer and from
the layers listed before it, never from a later one, and no import (at module
level or inside a function) may close a cycle among `_src` modules. Nothing in
`_src` imports the public `mlax.*` modules: those are thin re-exports of it.

    base        config, errors, dtypes, pytrees, debug info, and the one module
                that touches jaxlib's private internals (jaxlib_internals)
    backend     the native plugin, pass pipeline, StableHLO compiler driver,
                PJRT runtime
    core        tracer and avals, primitives and bind, tracing a Python function
                into a func.func (tracing), the Array type; typing (ArrayLike)
    transforms  autodiff (grad, jvp, vjp, custom_jvp/vjp, checkpoint) and vmap:
                each emits an op naming a traced callee; the MLIR passes do the rest
    lax         the strict primitive layer, one module per op family
                (elementwise, shape, reductions, linalg, slicing, math,
                convolution, fft, control_flow; lax.py re-exports them; special:
                igamma, betainc, the scaled Bessel functions, traced from
                other lax functions with custom_jvp derivatives)
    jit         jit (Jitted / Lowered / Compiled), cached C++ dispatch,
                cache-miss explanations, make_jaxpr / eval_shape, devices, dlpack
    numpy       mlax.numpy by topic, Array / Tracer methods and indexing
    random, ops (segment reductions), flatten_util (ravel_pytree), nn: built on
                numpy (nn also on random)
    scipy       jax.scipy: special functions, stats distributions, integrate,
                linalg compositions; built on numpy, lax and nn
    image       jax.image: resize / scale_and_translate; built on numpy
    experimental  jax.experimental.ode (odeint), built on numpy and flatten_util;
                  jax.experimental.random (a stateful PRNG over Refs), on random;
                  jax.experimental.sparse (BCOO), built on numpy, lax and random
    test_util   numerical AD checks (check_grads) against finite differences

mlax.example_libraries (optimizers, stax) is the exception to the thin
re-exports: like JAX's, it is example user code written on the public API.

Where a lower layer must call into a higher one (an eager op runs through
jit; Array methods are numpy functions; a config change clears jit's caches),
the higher layer registers itself into the lower one when it is imported, as
JAX does; `mlax/__init__.py` imports every layer, so registration is done
before any user code runs. `test/py/test_import_layers.py` enforces all of this.
"""

# The layers, lowest first; modules of one tuple entry's packages may import
# each other (acyclically). Read by test/py/test_import_layers.py.
LAYERS = (
    ("base",),
    ("backend", "dialect"),
    ("core", "typing"),
    ("transforms",),
    ("lax",),
    ("jit",),
    ("numpy",),
    ("random", "ops", "flatten_util"),
    ("nn",),
    ("scipy", "image", "experimental"),
    ("test_util",),
)
