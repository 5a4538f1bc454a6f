"""backend.partial_eval.split: a lowered program cut at its late arguments
(an eager vjp's forward and backward)."""
import numpy as np
import pytest
from mlir import ir

from mlax._src.backend import native, partial_eval, runtime
from mlax._src.base import dtypes, jaxlib_internals
from mlax._src.base.tree import registry
from mlax._src.core import tracing
from mlax._src.core.tracer import ShapedArray

REGIONS = """
func.func @main(%x: tensor<3xf32>, %ct: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = stablehlo.constant dense<2.0> : tensor<3xf32>
  %s = stablehlo.sine %x : tensor<3xf32>
  %y = stablehlo.multiply %s, %c : tensor<3xf32>
  %cos = stablehlo.cosine %x : tensor<3xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %acc = %cos) : tensor<i32>, tensor<3xf32>
   cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %a = stablehlo.multiply %acc, %ct : tensor<3xf32>
    stablehlo.return %j, %a : tensor<i32>, tensor<3xf32>
  }
  %g = stablehlo.multiply %w#1, %c : tensor<3xf32>
  return %y, %g : tensor<3xf32>, tensor<3xf32>
}
"""


def parse(text):
    """`text` (StableHLO's pretty form) as mlax's lowering leaves it: generic
    ops in mlax's context."""
    generic = jaxlib_internals.parse_stablehlo(text).operation.get_asm(
        print_generic_op_form=True)
    with native.context():
        return ir.Module.parse(generic)


def run(module, *args):
    text = module.operation.get_asm(enable_debug_info=False)
    main = next(op for op in module.body.operations if op.operation.name == "func.func")
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    avals = [ShapedArray(*dtypes.shape_dtype_of(t), False) for t in ftype.inputs]
    outs = [ShapedArray(*dtypes.shape_dtype_of(t), False) for t in ftype.results]
    exe = tracing._Executable(runtime.compile(text), avals, outs,
                              registry.flatten(outs)[1], text, {})
    return [np.asarray(r) for r in exe([np.asarray(a) for a in args])]


def test_split_with_a_region_that_uses_a_late_argument():
    module = parse(REGIONS)
    before = str(module)
    fwd, bwd, res_types = partial_eval.split(module, 1, 1)
    # The while's body uses %ct: the while goes to the backward; sine and
    # cosine stay in the forward, and cosine's value is the one residual.
    fwd_text, bwd_text = str(fwd), str(bwd)
    assert "stablehlo.while" in bwd_text and "stablehlo.while" not in fwd_text
    assert "stablehlo.cosine" in fwd_text and "stablehlo.cosine" not in bwd_text
    assert [str(t) for t in res_types] == ["tensor<3xf32>"]
    # The constant both use is copied, not passed.
    assert "dense<2.0" in bwd_text.replace("2.000000e+00", "2.0")
    x = np.array([0.5, 1.0, -2.0], np.float32)
    ct = np.array([1.5, -1.0, 0.25], np.float32)
    y, res = run(fwd, x)
    (g,) = run(bwd, res, ct)
    np.testing.assert_allclose(y, np.sin(x) * 2, rtol=1e-6)
    np.testing.assert_allclose(g, np.cos(x) * ct * ct * 2, rtol=1e-6)
    assert str(module) == before  # the original is left as it was


_NOT_SPLITTABLE = {
    # An early result that needs a late argument.
    "early result": """
  %y = stablehlo.add %x, %ct : tensor<f32>
  return %y, %x : tensor<f32>, tensor<f32>""",
    # A token the forward makes and the backward uses.
    "token": """
  %t = stablehlo.after_all : !stablehlo.token
  %t2 = stablehlo.after_all %t : !stablehlo.token
  %y = stablehlo.add %x, %ct : tensor<f32>
  %z, %t3 = "stablehlo.optimization_barrier"(%y, %t2) : (tensor<f32>, !stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  return %x, %z : tensor<f32>, tensor<f32>""",
}


@pytest.mark.parametrize("reason", list(_NOT_SPLITTABLE))
def test_programs_that_cannot_be_cut_are_refused(reason):
    module = parse("func.func @main(%x: tensor<f32>, %ct: tensor<f32>) -> "
                   "(tensor<f32>, tensor<f32>) {" + _NOT_SPLITTABLE[reason] + "\n}")
    with pytest.raises(partial_eval.NotSplittable, match=reason):
        partial_eval.split(module, 1, 1)


def test_a_late_result_computed_by_the_forward_is_a_residual():
    module = parse("""
func.func @main(%x: tensor<f32>, %ct: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %y = stablehlo.exponential %x : tensor<f32>
  return %x, %y : tensor<f32>, tensor<f32>
}""")
    fwd, bwd, res_types = partial_eval.split(module, 1, 1)
    x = np.float32(0.5)
    out, res = run(fwd, x)
    (late,) = run(bwd, res, np.float32(3.0))
    assert out == x and np.isclose(late, np.exp(x))
