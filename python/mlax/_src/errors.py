"""Errors named as in JAX, each with a one-line fix."""
from __future__ import annotations


class MlaxTypeError(TypeError):
    pass


class ConcretizationTypeError(TypeError):
    """A concrete Python value was needed but a traced value was given."""


class TracerBoolConversionError(ConcretizationTypeError):
    pass


class TracerIntegerConversionError(TypeError):
    pass


class TracerArrayConversionError(TypeError):
    pass


class NonConcreteBooleanIndexError(IndexError):
    pass


class UnexpectedTracerError(Exception):
    pass


def _where(tracer) -> str:
    loc = getattr(tracer, "_where", None)
    return f" (traced value created at {loc})" if loc else ""


def bool_conversion(tracer) -> TracerBoolConversionError:
    return TracerBoolConversionError(
        f"Attempted boolean conversion of traced array with shape "
        f"{tracer.aval.str_short()}{_where(tracer)}.\n"
        "The error occurred while tracing a function with mlax.jit: Python "
        "control flow (`if`, `while`, `and`, `or`, `not`) cannot depend on a "
        "traced value. Use mlax.numpy.where for value-dependent "
        "branches, or mark the argument static with static_argnums/static_argnames.")


def concretization(tracer, what: str) -> ConcretizationTypeError:
    return ConcretizationTypeError(
        f"Abstract tracer value encountered where a concrete value is expected: "
        f"{what} needs a concrete value, got a traced array with shape "
        f"{tracer.aval.str_short()}{_where(tracer)}.\n"
        "If the value comes from a jitted function's argument, mark that argument "
        "static with static_argnums/static_argnames.")


def integer_conversion(tracer) -> TracerIntegerConversionError:
    return TracerIntegerConversionError(
        f"The __index__() method was called on traced array with shape "
        f"{tracer.aval.str_short()}{_where(tracer)}.\n"
        "A traced value cannot be used as a Python integer (e.g. for a shape, "
        "range() or list index); mark the argument static with static_argnums.")


def array_conversion(tracer) -> TracerArrayConversionError:
    return TracerArrayConversionError(
        f"The numpy.ndarray conversion method __array__() was called on traced "
        f"array with shape {tracer.aval.str_short()}{_where(tracer)}.\n"
        "NumPy functions cannot run on traced values inside mlax.jit; use the "
        "mlax.numpy equivalent instead.")


def leaked(tracer) -> UnexpectedTracerError:
    return UnexpectedTracerError(
        f"Encountered an unexpected tracer: a value with shape "
        f"{tracer.aval.str_short()} traced by a function that has already "
        f"returned{_where(tracer)}. It escaped its trace (e.g. stored in a "
        "global or an attribute). Return it from the jitted function instead.")
