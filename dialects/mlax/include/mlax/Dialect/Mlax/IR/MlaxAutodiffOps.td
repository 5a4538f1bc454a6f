//===- MlaxAutodiffOps.td - differentiation ops ---------------*- tablegen -*-===//
//
// `stop_gradient`, the transformation ops `mlax.jvp`/`mlax.vjp` that name a
// callee and are expanded by `mlax-autodiff`, and the calls of functions with
// user-defined derivatives (`custom_jvp_call`, `custom_vjp_call`).
// Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_StopGradientOp : Mlax_Op<"stop_gradient",
    [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface,
     Mlax_ElementwiseDerivative, Mlax_ElementwiseBatching]> {
  let partials = [Mlax_ZeroPartial];
  let summary = "the identity, with a zero derivative";
  let description = [{
    ```mlir
    %y = mlax.stop_gradient %x : tensor<4xf32>
    ```
    `mlax-autodiff` removes it once every derivative has been generated.
  }];
  let arguments = (ins Mlax_Tensor:$operand);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Mlax_JvpOp : Mlax_Op<"jvp",
    [Pure, AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "forward-mode derivative of a function (expanded by mlax-autodiff)";
  let description = [{
    Calls `callee` on `primals` and pushes `tangents` forward: one tangent
    for each argument listed in `wrt` (real-float arguments; the others have
    none). The results are the callee's results followed by one tangent per
    callee result (zeros for results that are not real floats).
    ```mlir
    %y, %dy = mlax.jvp @f(%x) tangents(%dx) wrt = [0]
        : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Mlax_Tensor>:$primals,
                       Variadic<Mlax_Tensor>:$tangents, DenseI64ArrayAttr:$wrt);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $primals `)` `tangents` `(` $tangents `)` `wrt` `=` $wrt attr-dict
    `:` functional-type(operands, results)
  }];
}

def Mlax_VjpOp : Mlax_Op<"vjp",
    [Pure, AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "reverse-mode derivative of a function (expanded by mlax-autodiff)";
  let description = [{
    Calls `callee` on `primals` and pulls `cotangents` back: one cotangent
    for each callee result listed in `seeds` (results not listed get zero),
    giving one cotangent for each argument listed in `wrt`. The results are
    the callee's results followed by those argument cotangents. `grad` is a
    `vjp` seeded with 1.0.
    ```mlir
    %y, %g = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0]
        : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Mlax_Tensor>:$primals,
                       Variadic<Mlax_Tensor>:$cotangents, DenseI64ArrayAttr:$wrt,
                       DenseI64ArrayAttr:$seeds);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $primals `)` `cotangents` `(` $cotangents `)` `wrt` `=` $wrt
    `seeds` `=` $seeds attr-dict `:` functional-type(operands, results)
  }];
}

def Mlax_CustomJvpCallOp : Mlax_Op<"custom_jvp_call",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a function whose forward-mode derivative is user-defined";
  let description = [{
    Computes `callee(operands)`. Derivatives use `jvp_rule`, a function of
    the primals followed by one tangent per primal, returning the results
    followed by one tangent per result; reverse mode transposes it.
    ```mlir
    %y = mlax.custom_jvp_call @f(%x) jvp_rule = @f_jvp : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, FlatSymbolRefAttr:$jvp_rule,
                       Variadic<Mlax_Tensor>:$operands);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `jvp_rule` `=` $jvp_rule attr-dict
    `:` functional-type($operands, results)
  }];
}

def Mlax_CustomVjpCallOp : Mlax_Op<"custom_vjp_call",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a function whose reverse-mode derivative is user-defined";
  let description = [{
    Computes `callee(operands)`. Reverse mode calls `fwd` (the operands to
    the results followed by residuals) and `bwd` (the residuals followed by
    one cotangent per result, to one cotangent per operand). Forward mode is
    an error, as in JAX.
    ```mlir
    %y = mlax.custom_vjp_call @f(%x) fwd = @f_fwd bwd = @f_bwd
        : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, FlatSymbolRefAttr:$fwd,
                       FlatSymbolRefAttr:$bwd, Variadic<Mlax_Tensor>:$operands);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `fwd` `=` $fwd `bwd` `=` $bwd attr-dict
    `:` functional-type($operands, results)
  }];
}

def Mlax_RematCallOp : Mlax_Op<"remat_call",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a function whose intermediates are recomputed, not saved, for its derivative";
  let description = [{
    `checkpoint`/`remat`: computes `callee(operands)`. In reverse mode the
    derivative recomputes the callee from its operands, passed through an
    `mlax.optimization_barrier` so the recomputation is not merged back
    into the forward pass; forward mode and the primal value treat it as a
    plain call. With the unit attribute `mlax.saves_results` (the values a
    checkpoint policy saves), the results go through the barrier too and
    the recomputation uses them where the callee computes them.
    ```mlir
    %y = mlax.remat_call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Mlax_Tensor>:$operands);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

def Mlax_OptimizationBarrierOp : Mlax_Op<"optimization_barrier",
    [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_ElementwiseBatching]> {
  let summary = "the identity, which compilers may not move computation across";
  let description = [{
    Lowered to `stablehlo.optimization_barrier`: XLA may not hoist or merge
    computation through it, which is what makes rematerialisation stick.
    ```mlir
    %a, %b = mlax.optimization_barrier %x, %y : tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$operands);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = "$operands attr-dict `:` type($operands)";
  let extraClassDeclaration = Mlax_HloName<"optimization_barrier">.hloDecl;
  // Canonicalization drops the operands whose results are unused (what a
  // barrier does not hand on need not be kept alive up to it).
  let hasCanonicalizer = 1;
}
