"""Errors named and worded as in JAX, each with a one-line fix.

Messages follow JAX's: what went wrong, then "The error occurred while
tracing the function f at file:line for jit. This concrete value was not
available in Python because it depends on the value of the argument x.",
then how to fix it. The traceback's last user frame is the offending line.
"""
from __future__ import annotations


class MlaxTypeError(TypeError):
    pass


class MlaxIndexError(IndexError):
    pass


# JAX's names for the same two base classes (jax.errors.JAXTypeError, ...).
JAXTypeError = MlaxTypeError
JAXIndexError = MlaxIndexError


class ConcretizationTypeError(MlaxTypeError):
    """A concrete Python value was needed but a traced value was given."""


class TracerBoolConversionError(ConcretizationTypeError):
    """`if`/`while`/`and`/`or`/`not`/`bool()` on a traced value."""


class TracerIntegerConversionError(MlaxTypeError):
    """A traced value used as a Python int (`__index__`)."""


class TracerArrayConversionError(MlaxTypeError):
    """A traced value converted to a NumPy array."""


class NonConcreteBooleanIndexError(MlaxIndexError):
    """A traced boolean mask used as an index."""


class UnexpectedTracerError(MlaxTypeError):
    """A traced value used after its trace ended (it leaked)."""


class KeyReuseError(MlaxTypeError):
    """A PRNG key used twice while jax_debug_key_reuse is on."""


_DOCS = "See https://docs.jax.dev/en/latest/errors.html#jax.errors.{} (the same error in JAX)."


def aval_str(aval) -> str:
    """JAX's spelling of an abstract value: `float32[3,4]`, `~int32[]` (weak)."""
    dims = ",".join(str(d) for d in aval.shape)
    return f"{'~' if aval.weak_type else ''}{aval.dtype.name}[{dims}]"


def _context(tracer) -> str:
    from mlax._src.base import debug_info

    try:
        ctx = debug_info.tracing_context(tracer)
    except Exception:  # noqa: BLE001 (the message must never fail)
        ctx = ""
    return f"\n{ctx}" if ctx else ""


def _shape(tracer) -> str:
    return aval_str(tracer.aval).lstrip("~")


def _static_hint(tracer) -> str:
    """The fix that exists for the transformation the value is traced for:
    jit has static arguments, vmap unmapped ones, the others neither."""
    from mlax._src.base import debug_info

    try:
        purpose = debug_info.purpose(tracer.trace)
    except Exception:  # noqa: BLE001 (the message must never fail)
        purpose = "jit"
    if purpose == "jit":
        return ", or mark the argument static with static_argnums/static_argnames"
    if purpose == "checkpoint / remat":
        return ", or mark the argument static with checkpoint's static_argnums"
    if purpose == "vmap":
        return (", or pass an argument that is the same for every example unmapped "
                "(in_axes=None)")
    return ""


def bool_conversion(tracer) -> TracerBoolConversionError:
    return TracerBoolConversionError(
        f"Attempted boolean conversion of traced array with shape {_shape(tracer)}."
        f"{_context(tracer)}\n"
        "Python control flow (`if`, `while`, `and`, `or`, `not`, `bool()`) cannot depend on "
        "a traced value: use mlax.lax.cond / mlax.lax.switch to choose a computation, "
        "mlax.lax.while_loop / fori_loop for a loop, mlax.numpy.where (or mlax.lax.select) "
        f"for a value-dependent choice{_static_hint(tracer)}.\n"
        + _DOCS.format("TracerBoolConversionError"))


_CONVERSIONS = {"int()": "int", "float()": "float", "complex()": "complex"}


def concretization(tracer, what: str) -> ConcretizationTypeError:
    if what in _CONVERSIONS:
        name = _CONVERSIONS[what]
        problem = (f"The problem arose with the `{name}` function. If trying to convert the "
                   f"data type of a value, try using `x.astype({name})` or "
                   f"`mlax.numpy.array(x, {name})` instead.")
    else:
        problem = (f"The problem arose with {what}, which needs a concrete value. If using "
                   "`jit`, try using `static_argnums` (or `static_argnames`) for that "
                   "argument, or applying `jit` to smaller subfunctions.")
    return ConcretizationTypeError(
        f"Abstract tracer value encountered where concrete value is expected: traced array "
        f"with shape {_shape(tracer)}\n{problem}{_context(tracer)}\n"
        + _DOCS.format("ConcretizationTypeError"))


def integer_conversion(tracer) -> TracerIntegerConversionError:
    return TracerIntegerConversionError(
        f"The __index__() method was called on traced array with shape {_shape(tracer)}"
        f"{_context(tracer)}\n"
        "A traced value cannot be used as a Python integer (a shape, a range() bound, a "
        "list index, a slice bound); mark the argument static with static_argnums.\n"
        + _DOCS.format("TracerIntegerConversionError"))


def array_conversion(tracer) -> TracerArrayConversionError:
    return TracerArrayConversionError(
        f"The numpy.ndarray conversion method __array__() was called on traced array with "
        f"shape {_shape(tracer)}{_context(tracer)}\n"
        "NumPy functions cannot run on traced values inside mlax.jit; use the mlax.numpy "
        "equivalent instead.\n" + _DOCS.format("TracerArrayConversionError"))


def non_concrete_boolean_index(tracer) -> NonConcreteBooleanIndexError:
    return NonConcreteBooleanIndexError(
        f"Array boolean indices must be concrete; got {_shape(tracer)}{_context(tracer)}\n"
        "A boolean mask gives a value-dependent shape, which mlax.jit cannot trace; use "
        "mlax.numpy.where(mask, x, fill) instead.\n"
        + _DOCS.format("NonConcreteBooleanIndexError"))


def leaked(tracer) -> UnexpectedTracerError:
    from mlax._src.base import debug_info

    debug = getattr(tracer.trace, "debug", None)
    where = ""
    if debug is not None:
        fun = debug[0]
        where = (f"\nThe function being traced when the value leaked was "
                 f"{debug_info.fun_name(fun)} at {debug_info.fun_source(fun)} traced for "
                 f"{debug_info.purpose(tracer.trace)}.")
    try:
        line = debug_info.created_at(tracer)
    except Exception:  # noqa: BLE001
        line = None
    created = (f"\n------------------------------\nThe leaked intermediate value was created "
               f"on line {line}.\n------------------------------" if line else "")
    return UnexpectedTracerError(
        "Encountered an unexpected tracer. A function transformed by mlax had a side effect, "
        f"allowing for a reference to an intermediate value with type {_shape(tracer)} "
        "wrapped in a JitTracer to escape the scope of the transformation.\n"
        "mlax transformations require that functions explicitly return their outputs, and "
        f"disallow saving intermediate values to global state.{where}{created}\n"
        "Return the value from the jitted function instead of storing it (in a global, a "
        "list or an attribute).\n" + _DOCS.format("UnexpectedTracerError"))
