"""`make_jaxpr`, `eval_shape` and `ShapeDtypeStruct`, as in JAX.

mlax has no jaxprs: a traced function is a module of the `mlax` dialect
(`make_ir` shows it as MLIR). `make_jaxpr` traces the same way and shows
that module in the jaxpr notation JAX users read in tutorials: one equation
per mlax op, `name[params] operands`, variables named a, b, c, ... and
scalar constants written inline as literals (`1.67:f32[]`). Calls, conds,
whiles and scans print their bodies as nested jaxprs. The MLIR is still
there: `ClosedJaxpr.ir` is the traced module.
"""
from __future__ import annotations

import re

import numpy as np
from mlir import ir

from mlax._src.base import dtypes
from mlax._src.core import tracing
from mlax._src.core.tracer import ShapedArray
from mlax._src.base.tree import registry


class ShapeDtypeStruct:
    """A shape, a dtype and a weak type, standing for an array (as
    jax.ShapeDtypeStruct): what `eval_shape` returns, and what `eval_shape`,
    `make_jaxpr` and `jit(f).lower` accept in place of an array."""

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    def __init__(self, shape, dtype, *, weak_type=False, sharding=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.sharding = sharding

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray(self.shape, dtypes.canonicalize(self.dtype), self.weak_type)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __eq__(self, other):
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))


def _as_mlax_struct(leaf):
    # jax.ShapeDtypeStruct (and anything else shaped like one that is not an
    # array) stands for an array of its shape and dtype.
    if (not hasattr(leaf, "aval") and hasattr(leaf, "shape") and hasattr(leaf, "dtype")
            and not isinstance(leaf, (np.ndarray, np.generic))
            and type(leaf).__name__ == "ShapeDtypeStruct"):
        return ShapeDtypeStruct(leaf.shape, leaf.dtype,
                                weak_type=getattr(leaf, "weak_type", False))
    return leaf


class _Traced:
    """A function traced for make_jaxpr / eval_shape / Jitted.trace: the
    module, its arguments' and results' types as the user's function has
    them, and, for a function on Refs, which of the module's arguments are
    Refs (`ref_args`: argument index -> index of its final value among the
    module's results; the first `n_closed` are the Refs it closes over,
    `closed`)."""

    def __init__(self, module, in_avals, out_avals, out_tree, ref_args=None, closed=()):
        self.module, self.in_avals, self.out_avals = module, in_avals, out_avals
        self.out_tree, self.ref_args, self.closed = out_tree, ref_args or {}, list(closed)


def trace_jitted(jitted, args, kwargs) -> _Traced:
    """`jitted`'s function traced for `args` (arrays, ShapeDtypeStructs, or
    Refs: then on the Refs' types, never reading or writing them)."""
    from mlax._src.core import ref_state
    from mlax._src.jit import api, ref_calls

    args, kwargs = registry.flatten((args, kwargs))[1].unflatten(
        [_as_mlax_struct(x) for x in registry.flatten((args, kwargs))[0]])
    leaves, treedef, _, rebuild = jitted._prepare(args, kwargs)
    if not ref_calls.has_ref_types(leaves) and not jitted._closed_refs:
        avals = tuple(api._leaf_aval(leaf) for leaf in leaves)
        try:
            module, out_avals, out_tree = jitted._trace(treedef, avals, rebuild, refs_in=True)
            return _Traced(module, avals, out_avals, out_tree)
        except ref_state.RefsNeeded as e:
            jitted._closed_refs.extend(e.refs)

    def trace(twin, t_args, t_kwargs, refs):
        leaves, treedef, _, rebuild = twin._prepare(t_args, t_kwargs)
        avals = tuple(api._leaf_aval(leaf) for leaf in leaves)
        module, out_avals, out_tree = twin._trace(treedef, avals, rebuild, refs_in=True)
        out_tree, user_avals, finals = refs.split_results(out_tree, out_avals)
        at = [i for i, leaf in enumerate(leaves) if isinstance(leaf, ref_calls.RefStruct)]
        n_closed, n_args = len(refs.closed), len(refs.args)
        ref_args = {at[n_closed + m]: finals[m] for m in range(n_args)}
        ref_args.update({at[j]: finals[n_args + j] for j in range(n_closed)})  # (None: unwritten)
        in_avals = [ref_state.AbstractRef(a) if i in ref_args else a
                    for i, a in enumerate(avals)][n_closed:]
        return _Traced(module, tuple(in_avals), user_avals, out_tree, ref_args, refs.closed)

    return ref_calls.abstract(jitted, args, kwargs, trace)


def _trace(fun, static_argnums, static_argnames, args, kwargs) -> _Traced:
    from mlax._src.jit import api

    return trace_jitted(api.Jitted(fun, static_argnums, static_argnames), args, kwargs)


def eval_shape(fun, *args, **kwargs):
    """The shapes and dtypes `fun(*args, **kwargs)` would have, as a pytree
    of ShapeDtypeStruct, without running it (it is traced, not compiled;
    the Refs it takes or closes over are neither read nor written)."""
    if not callable(fun):
        raise TypeError(f"eval_shape expects a callable, got {fun!r}")
    from mlax._src.core import primitives

    for leaf in registry.flatten((args, kwargs))[0]:
        if type(leaf) is int:  # (range checked as a jitted call's arguments are)
            primitives.to_numpy(leaf, primitives.aval_of(leaf))
    traced = _trace(fun, (), (), args, kwargs)
    out = traced.out_tree.unflatten([ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)
                                     for a in traced.out_avals])
    # float0 results are no values of the program (NumPy zeros, put back by
    # out_tree): their shape and dtype too, as JAX's.
    leaves, treedef = registry.flatten(out)
    return treedef.unflatten([ShapeDtypeStruct(l.shape, l.dtype) if tracing.is_float0(l) else l
                              for l in leaves])


def make_jaxpr(fun, static_argnums=(), *, static_argnames=(), return_shape=False,
               axis_env=None, abstracted_axes=None):
    """`make_jaxpr(f)(*args)`: the ClosedJaxpr that shows what `f` traces to
    (the mlax dialect module, in jaxpr notation; see this module's doc)."""
    if not callable(fun):
        raise TypeError(f"make_jaxpr expects a callable, got {fun!r}")
    if axis_env or abstracted_axes is not None:
        raise NotImplementedError("make_jaxpr: axis_env and abstracted_axes are not supported")
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if isinstance(static_argnames, str):
        static_argnames = (static_argnames,)

    def make(*args, **kwargs):
        traced = _trace(fun, tuple(static_argnums), tuple(static_argnames), args, kwargs)
        closed = ClosedJaxpr.of(traced)
        if return_shape:
            shapes = traced.out_tree.unflatten([ShapeDtypeStruct(a.shape, a.dtype,
                                                                 weak_type=a.weak_type)
                                                for a in traced.out_avals])
            return closed, shapes
        return closed

    make.__name__ = f"make_jaxpr({getattr(fun, '__name__', 'fun')})"
    return make


# ---------------------------------------------------------------------------
# The jaxpr view of an mlax module
# ---------------------------------------------------------------------------

# The dialect's I32 enum attributes (dialects/Mlax/*.td), by attribute name.
_ENUMS = {
    "comparison_direction": ("eq", "ne", "lt", "le", "gt", "ge"),
    "select": ("eq", "ne", "lt", "le", "gt", "ge"),
    "combiner": ("set", "add", "mul", "min", "max"),
    "reduction": ("add", "mul", "max", "min"),
    "transpose_a": ("none", "transpose", "adjoint"),
}


_type_strs: dict = {}


_COMPLEX_ELEMENT = re.compile(r"\(([^,()]+),([^,()]+)\)")


def _complex_constant(op) -> np.ndarray:
    """The value of a complex `mlax.constant`, read from its printed form
    (MLIR prints floats so that they read back exactly)."""
    rt = ir.RankedTensorType(op.results[0].type)
    dtype = dtypes.complex64 if str(rt.element_type) == "complex<f32>" else dtypes.complex128
    text = op.operation.get_asm()
    body = text[text.index("dense<") + len("dense<"):]
    elements = np.array([complex(float(re_), float(im)) for re_, im in
                         _COMPLEX_ELEMENT.findall(body.split(">")[0])], dtype=dtype)
    shape = tuple(rt.shape)
    return np.broadcast_to(elements, shape).copy() if elements.size == 1 else \
        elements.reshape(shape)


def _type_str(t) -> str:
    """`f32[2,3]` for tensor<2x3xf32>, memoised (a program repeats few types;
    a cached type keeps its context alive, so its identity is not reused)."""
    text = _type_strs.get(t)
    if text is None:
        if len(_type_strs) > 4096:
            _type_strs.clear()
        rt = ir.RankedTensorType(t)
        text = _type_strs[t] = \
            f"{_element_name(str(rt.element_type))}[{','.join(str(d) for d in rt.shape)}]"
    return text


def _element_name(s: str) -> str:
    dtype = dtypes.MLIR_ELEMENT_DTYPES.get(s)
    return s if dtype is None else dtypes.short_name(dtype)


def _var_name(n: int) -> str:
    # a..z, ba..bz, ca.. (JAX's naming: base 26 with 'a' as zero past one letter).
    s = ""
    while True:
        s = chr(ord("a") + n % 26) + s
        n //= 26
        if n == 0:
            return s


def _attr_value(attr):
    """A Python value for an MLIR attribute (the bindings hand attributes
    out already downcast to their concrete class)."""
    if isinstance(attr, ir.BoolAttr):
        return bool(attr.value)
    if isinstance(attr, ir.IntegerAttr):
        return int(attr.value)
    if isinstance(attr, ir.FloatAttr):
        return float(attr.value)
    if isinstance(attr, (ir.StringAttr, ir.FlatSymbolRefAttr)):
        return attr.value
    if isinstance(attr, (ir.DenseI64ArrayAttr, ir.DenseI32ArrayAttr)):
        return tuple(int(v) for v in attr)
    if isinstance(attr, ir.DenseBoolArrayAttr):
        return tuple(bool(v) for v in attr)
    if isinstance(attr, ir.TypeAttr):
        return _type_str(attr.value)
    if isinstance(attr, ir.ArrayAttr):
        return tuple(_attr_value(a) for a in attr)
    text = str(attr)
    if text.startswith("#mlax<") and text.endswith(">"):
        return text[len("#mlax<"):-1].split(" ", 1)[-1]
    return text


def _accuracy_text(text: str) -> str:
    """An op's `#mlax.accuracy<...>` as JAX's `accuracy` parameter:
    `AccuracyMode.HIGHEST`, or `Tolerance(atol=1e-05)` (mlax's Tolerance has
    no repr; JAX prints the object's address)."""
    inner = text[text.index("<") + 1:-1]
    if inner in ("highest", "default"):
        return f"AccuracyMode.{inner.upper()}"
    return f"Tolerance({inner.replace(' = ', '=')})"


def _fmt_param(value) -> str:
    if isinstance(value, tuple):
        inner = ", ".join(_fmt_param(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return str(value)


class Literal:
    """A scalar constant written inline in an equation (`2.0:f32[]`)."""

    __slots__ = ("val", "aval")

    def __init__(self, val, aval_str):
        self.val = val
        self.aval = aval_str

    def __str__(self):
        return f"{self.val}:{self.aval}"

    __repr__ = __str__


class Var:
    __slots__ = ("name", "aval")

    def __init__(self, name, aval_str):
        self.name = name
        self.aval = aval_str

    def __str__(self):
        return self.name

    __repr__ = __str__


class Primitive:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name

    __repr__ = __str__


class JaxprEqn:
    """One mlax op: `outvars = primitive[params] invars`."""

    __slots__ = ("outvars", "primitive", "params", "invars")

    def __init__(self, outvars, primitive, params, invars):
        self.outvars = outvars
        self.primitive = primitive
        self.params = params
        self.invars = invars


class Jaxpr:
    """A function body in jaxpr form: constvars, invars, eqns, outvars."""

    _closed = None  # the ClosedJaxpr whose outermost jaxpr this is

    def __init__(self, constvars, invars, eqns, outvars):
        self.constvars = constvars
        self.invars = invars
        self.eqns = eqns
        self.outvars = outvars

    def pretty_print(self, indent=0) -> str:
        return _print_jaxpr(self, indent)

    def __str__(self):
        return self.pretty_print()

    __repr__ = __str__


class ClosedJaxpr:
    """What `make_jaxpr(f)(*args)` returns: the jaxpr view (`.jaxpr`, `.eqns`,
    `.in_avals`, `.out_avals`, `.consts`) of the traced mlax module (`.ir`)."""

    def __init__(self, module, in_avals, out_avals, ref_args=None, closed=()):
        from mlax._src.jit.api import TracedIR

        self.ir = TracedIR(module)
        self.in_avals = list(in_avals)
        self.out_avals = list(out_avals)
        self.jaxpr, self.consts = _Builder(module, ref_args, closed, len(out_avals)).main()
        self.jaxpr._closed = self  # what eval_jaxpr runs: this module
        self._module, self._refs = module, bool(ref_args or closed)

    @classmethod
    def of(cls, traced: _Traced) -> "ClosedJaxpr":
        return cls(traced.module, traced.in_avals, traced.out_avals, traced.ref_args,
                   traced.closed)

    @property
    def eqns(self):
        return self.jaxpr.eqns

    def pretty_print(self) -> str:
        return self.jaxpr.pretty_print()

    def __str__(self):
        return self.pretty_print()

    __repr__ = __str__


class _Builder:
    """Turns the functions of an mlax module into Jaxprs (one naming
    counter for the whole printout, as JAX's printer has)."""

    def __init__(self, module, ref_args=None, closed=(), n_out=None):
        self.module = module
        # A function on Refs (see _Traced): its Ref arguments print as Refs,
        # read once at the start (`b:f32[3] <- a[...]`) and, where changed,
        # written once at the end (`a[...] <- c`); the Refs it closes over
        # are constvars (their Refs the consts), as JAX's.
        self.ref_args, self.closed, self.n_out = ref_args or {}, list(closed), n_out
        self.funcs = {}
        for op in module.body.operations:
            if "sym_name" in op.attributes:
                self.funcs[op.attributes["sym_name"].value] = op
        self.count = 0

    def fresh(self, value):
        var = Var(_var_name(self.count), _type_str(value.type))
        self.count += 1
        return var

    def main(self):
        consts = list(self.closed)
        jaxpr = self.block(self.funcs["main"].regions[0].blocks[0], consts, self.ref_args)
        return jaxpr, consts

    def block(self, block, consts=None, ref_args=None):
        """The Jaxpr of `block` (its terminator gives the outvars). Scalar
        constants, and constants of one repeated element (a traced scalar
        operand), are literals, as a scalar in JAX's jaxprs; other constants
        become constvars (their values appended to `consts`) in the
        outermost jaxpr and equations elsewhere."""
        env = {}
        constvars, eqns = [], []
        invars = []
        ref_vars, reads = {}, {}
        for i, arg in enumerate(block.arguments):
            if ref_args and i in ref_args:
                ref_vars[i] = Var(_var_name(self.count), f"Ref{{{_type_str(arg.type)}}}")
                self.count += 1
                if i < len(self.closed):
                    constvars.append(ref_vars[i])
        if consts is not None:  # constvars are named first, as in JAX
            for op in block.operations:
                if op.operation.name == "mlax.constant":
                    value = self.constant_value(op)
                    if not self.is_literal(op, value):
                        var = self.fresh(op.results[0])
                        env[op.results[0]] = var
                        constvars.append(var)
                        consts.append(value)
        for i, arg in enumerate(block.arguments):
            if i in ref_vars:
                if i >= len(self.closed):
                    invars.append(ref_vars[i])
                continue
            var = self.fresh(arg)
            env[arg] = var
            invars.append(var)
        for i, ref in ref_vars.items():
            var = env[block.arguments[i]] = reads[i] = self.fresh(block.arguments[i])
            eqns.append(JaxprEqn([var], Primitive("get"), {}, [ref]))
        outvars = []
        for op in block.operations:
            name = op.operation.name
            if name in ("func.return", "mlax.yield"):
                outvars = [env[v] for v in op.operands]
                for i, ref in ref_vars.items():
                    if ref_args[i] is None:
                        continue
                    final = outvars[ref_args[i]]
                    if final is not reads[i]:
                        eqns.append(JaxprEqn([], Primitive("set"), {}, [ref, final]))
                if ref_vars:
                    outvars = outvars[:self.n_out]
                continue
            if name == "mlax.constant":
                value = self.constant_value(op)
                result = op.results[0]
                if self.is_literal(op, value):
                    scalar_type = _type_str(result.type).split("[")[0] + "[]"
                    env[result] = Literal(self.literal_text(value.reshape(-1)[0]), scalar_type)
                    continue
                if consts is not None:  # named above
                    continue
            invs = [env[v] for v in op.operands]
            outs = []
            for r in op.results:
                var = self.fresh(r)
                env[r] = var
                outs.append(var)
            prim, params = self.params(op, name)
            eqns.append(JaxprEqn(outs, Primitive(prim), params, invs))
        return Jaxpr(constvars, invars, eqns, outvars)

    @staticmethod
    def is_literal(op, value):
        if value.ndim == 0:
            return True
        if value.size == 0:
            return False
        try:
            return op.attributes["value"].is_splat
        except TypeError:  # complex elements (see _complex_constant)
            return bool(np.all(value == value.reshape(-1)[0]))

    @staticmethod
    def constant_value(op):
        try:
            attr = op.attributes["value"]
        except TypeError:  # the bindings cannot read complex elements back
            return _complex_constant(op)
        rt = ir.RankedTensorType(attr.type)
        if attr.is_splat:
            splat = attr.get_splat_value()
            scalar = _attr_value(splat)
            value = np.full(tuple(rt.shape), scalar)
        else:
            value = np.array(attr)
        if str(rt.element_type) == "i1":
            return value.astype(bool)
        return value

    @staticmethod
    def literal_text(value):
        v = value.item()
        if isinstance(v, float):
            return repr(v)
        return str(v)

    def params(self, op, name):
        prim = name.split(".", 1)[1] if name.startswith("mlax.") else name
        params = {}
        for key in op.attributes:
            attr = op.attributes[key]
            if key.endswith("SegmentSizes") or key.startswith("mlax.") or key == "loc":
                continue
            if key == "result_accuracy":
                params["accuracy"] = _accuracy_text(str(attr))
                continue
            value = _attr_value(attr)
            names = _ENUMS.get(key)
            if names is not None and isinstance(value, int) and 0 <= value < len(names):
                value = names[value]
            params[key] = value
        out_type = _type_str(op.results[0].type) if len(op.results) else ""
        if prim == "compare":
            prim = params.pop("comparison_direction")
        elif prim == "convert":
            prim = "convert_element_type"
            params["new_dtype"] = dtypes.shape_dtype_of(
                ir.RankedTensorType(op.results[0].type))[1].name
        elif prim == "broadcast_in_dim":
            params["shape"] = tuple(ir.RankedTensorType(op.results[0].type).shape)
        elif prim == "call":
            callee = params.pop("callee")
            prim = "pjit"
            params = {"name": callee,
                      "jaxpr": self.block(self.funcs[callee].regions[0].blocks[0])}
        if op.regions and len(op.regions):
            bodies = tuple(self.block(region.blocks[0]) for region in op.regions
                           if len(region.blocks))
            if prim == "cond":
                params["branches"] = bodies
            elif prim == "while":
                params["cond_jaxpr"], params["body_jaxpr"] = bodies
            else:
                params["jaxpr"] = bodies[0] if len(bodies) == 1 else bodies
        return prim, params


# ---------------------------------------------------------------------------
# Printing (JAX's layout: `{ lambda consts ; invars. let eqns in (outvars,) }`)
# ---------------------------------------------------------------------------

def _binders(vs):
    return " ".join(f"{v.name}:{v.aval}" for v in vs)


def _print_jaxpr(jaxpr: Jaxpr, indent: int) -> str:
    pad = " " * indent
    head = f"{{ lambda {_binders(jaxpr.constvars)}{' ' if jaxpr.constvars else ''}; " \
        f"{_binders(jaxpr.invars)}. let"
    lines = [head]
    for eqn in jaxpr.eqns:
        lines.append(_print_eqn(eqn, indent + 4))
    outs = ", ".join(str(v) for v in jaxpr.outvars)
    lines.append(f"{pad}  in ({outs}{',' if len(jaxpr.outvars) == 1 else ''}) }}")
    return "\n".join(lines)


def _print_eqn(eqn: JaxprEqn, indent: int) -> str:
    pad = " " * indent
    if eqn.primitive.name == "get" and not eqn.params:  # (a Ref's read, as JAX prints it)
        return f"{pad}{eqn.outvars[0].name}:{eqn.outvars[0].aval} <- {eqn.invars[0]}[...]"
    if eqn.primitive.name == "set" and not eqn.params:
        return f"{pad}{eqn.invars[0]}[...] <- {eqn.invars[1]}"
    lhs = " ".join(f"{v.name}:{v.aval}" for v in eqn.outvars)
    args = " ".join(str(v) for v in eqn.invars)
    if not eqn.params:
        return f"{pad}{lhs} = {eqn.primitive}{' ' if args else ''}{args}"
    nested = any(isinstance(v, Jaxpr) or (isinstance(v, tuple) and v and
                                          isinstance(v[0], Jaxpr))
                 for v in eqn.params.values())
    if not nested:
        ps = " ".join(f"{k}={_fmt_param(v)}" for k, v in sorted(eqn.params.items()))
        return f"{pad}{lhs} = {eqn.primitive}[{ps}]{' ' if args else ''}{args}"
    lines = [f"{pad}{lhs} = {eqn.primitive}["]
    inner = indent + 2
    for k, v in sorted(eqn.params.items()):
        if isinstance(v, Jaxpr):
            lines.append(f"{' ' * inner}{k}={v.pretty_print(inner)}")
        elif isinstance(v, tuple) and v and isinstance(v[0], Jaxpr):
            lines.append(f"{' ' * inner}{k}=(")
            for j in v:
                lines.append(f"{' ' * (inner + 2)}{j.pretty_print(inner + 2)}")
            lines.append(f"{' ' * inner})")
        else:
            lines.append(f"{' ' * inner}{k}={_fmt_param(v)}")
    lines.append(f"{pad}]{' ' if args else ''}{args}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# eval_jaxpr: running the module a jaxpr shows
# ---------------------------------------------------------------------------

def eval_jaxpr(jaxpr, consts, *args, propagate_source_info=True):
    """The flat list of results of the outermost jaxpr of a `make_jaxpr`
    (its `.jaxpr`) on the flat arguments `args`, as jax.core.eval_jaxpr:
    concrete arrays run the traced module as it is (the jaxpr is frozen: the
    function it came from is not called again); inside a trace (jit, grad,
    vmap) the module's functions are called from the trace being built.

    mlax's jaxpr is a view of an MLIR module whose constants are part of the
    program: `consts` must be the ClosedJaxpr's own (`closed.consts`)."""
    del propagate_source_info  # (the module's ops keep their locations)
    if not isinstance(jaxpr, Jaxpr):
        raise TypeError(f"eval_jaxpr expects a Jaxpr (ClosedJaxpr.jaxpr), got {type(jaxpr)}")
    closed = jaxpr._closed
    if closed is None:
        raise NotImplementedError(
            "eval_jaxpr: this Jaxpr is the body of a call, cond, while or scan inside a "
            "larger one; mlax evaluates the outermost jaxpr of make_jaxpr (ClosedJaxpr.jaxpr)")
    if closed._refs:
        raise NotImplementedError("eval_jaxpr: the jaxpr of a function on mutable array "
                                  "references (Refs) cannot be evaluated in mlax")
    consts = list(consts)
    if len(consts) != len(closed.consts) or any(
            c is not own and not _same_const(c, own) for c, own in zip(consts, closed.consts)):
        raise NotImplementedError(
            "eval_jaxpr: mlax's jaxpr holds its constants in the program it shows; it runs "
            "with those only (pass the ClosedJaxpr's own consts)")
    if len(args) != len(closed.in_avals):
        raise TypeError(f"eval_jaxpr: the jaxpr takes {len(closed.in_avals)} arguments, "
                        f"got {len(args)}")
    from mlax._src.core import tracer as core
    from mlax._src.core import tracing
    from mlax._src.jit import api

    for i, (arg, want) in enumerate(zip(args, closed.in_avals)):
        have = api._leaf_aval(arg)
        if have.shape != want.shape or have.dtype != want.dtype:
            raise TypeError(f"eval_jaxpr: argument {i} is {have.str_short()}, the jaxpr's "
                            f"invar is {want.str_short()}")
    with closed._module.context:
        module = ir.Module.parse(closed._module.operation.get_asm(enable_debug_info=True))
    trace = core.current_trace()
    if trace is None and not any(isinstance(a, core.Tracer) for a in args):
        out_tree = registry.flatten([0] * len(closed.out_avals))[1]
        return tracing.run_module(module, tuple(closed.out_avals), out_tree,
                                  tuple(closed.in_avals), list(args), "eval_jaxpr")
    return _call_in_trace(trace, module, closed, args)


def _same_const(c, own) -> bool:
    try:
        c = np.asarray(c)
    except Exception:  # a tracer: not the jaxpr's own
        return False
    return c.shape == own.shape and c.dtype == own.dtype and np.array_equal(
        c, own, equal_nan=c.dtype.kind in "fc")


_eval_count = [0]


def _call_in_trace(trace, module, closed, args):
    """Copies `module`'s functions into `trace`'s module under fresh names
    and calls its main from the trace: the results as tracers."""
    from mlax._src.backend import native
    from mlax._src.core import primitives
    from mlax._src.core import tracer as core

    target = trace.module
    with target.context, ir.Location.unknown():
        taken = {op.attributes["sym_name"].value for op in target.body.operations
                 if "sym_name" in op.attributes}
        funcs = [op for op in module.body.operations if "sym_name" in op.attributes]
        theirs = {op.attributes["sym_name"].value for op in funcs}
        renamed = {}
        for op in funcs:
            old = op.attributes["sym_name"].value
            while True:
                _eval_count[0] += 1
                new = f"eval_jaxpr_{_eval_count[0]}_{old}"
                if new not in taken and new not in theirs:
                    break
            renamed[old] = new
        for op in funcs:
            for old, new in renamed.items():
                ir.SymbolTable.replace_all_symbol_uses(old, new, op)
        for op in funcs:
            ir.SymbolTable.set_symbol_name(op, renamed[op.attributes["sym_name"].value])
            op.attributes["sym_visibility"] = ir.StringAttr.get("private")
            target.body.append(op.detach_from_parent())
        operands = [primitives.to_value(trace, a, aval) for a, aval in zip(args, closed.in_avals)]
        with trace.ip, core.user_location():
            call = native.ops().CallOp([a.mlir_type() for a in closed.out_avals],
                                       ir.FlatSymbolRefAttr.get(renamed["main"]), operands)
    return [core.Tracer(r, a, trace) for r, a in zip(call.results, closed.out_avals)]
