//===- MlaxControlFlowOps.td - structured control flow --------*- tablegen -*-===//
//
// `mlax.cond` (n branches, chosen by an index), `mlax.while` and `mlax.scan`:
// the ops behind lax.cond / switch / while_loop / fori_loop / scan / map.
// Their regions are isolated from above: everything a region uses is an
// operand of the op and an argument of the region's block, so each region is
// a function in all but name. The transformation passes treat it as one: they
// outline a region into a private func.func, differentiate or batch that
// function, and call the result from the new op's regions.
// Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_YieldOp : Mlax_Op<"yield",
    [Pure, Terminator, ReturnLike,
     ParentOneOf<["CondOp", "WhileOp", "ScanOp", "ReduceOp"]>]> {
  let summary = "the values a control-flow (or mlax.reduce) region gives back";
  let description = [{
    ```mlir
    mlax.yield %a, %b : tensor<f32>, tensor<3xi32>
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = "($results^ `:` type($results))? attr-dict";
}

def Mlax_CondOp : Mlax_Op<"cond",
    [IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "run one of n branches, chosen by an index (lax.cond / lax.switch)";
  let description = [{
    Runs branch `index` on `operands`; every branch's block takes the
    operands and yields values of the result types. An index outside
    [0, n) runs the last branch (as `stablehlo.case`); `lax.switch` clamps
    it first. `lax.cond(p, t, f)` is `mlax.cond` on `p` as i32 with the
    branches (f, t).
    ```mlir
    %r = mlax.cond %i (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%a: tensor<f32>):
      mlax.yield %a : tensor<f32>
    }, {
    ^bb0(%a: tensor<f32>):
      %n = mlax.neg %a : tensor<f32>
      mlax.yield %n : tensor<f32>
    }
    ```
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index, Variadic<Mlax_Tensor>:$inputs);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $index `(` $inputs `)` attr-dict `:` functional-type(operands, results)
    custom<Branches>($branches)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Mlax_WhileOp : Mlax_Op<"while",
    [IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "repeat the body while the condition holds (lax.while_loop)";
  let description = [{
    The loop state is the operands; both regions take it as block
    arguments. `cond` yields a `tensor<i1>`, `body` the next state. Values a
    loop closes over are carried through it unchanged.
    ```mlir
    %r = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
    ^bb0(%a: tensor<f32>):
      %p = mlax.compare LT, %a, %c10 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      mlax.yield %p : tensor<i1>
    } body {
    ^bb0(%a: tensor<f32>):
      %b = mlax.add %a, %a : tensor<f32>
      mlax.yield %b : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$inputs);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type(operands, results)
    custom<LoopRegions>($cond, $body)
  }];
  let hasVerifier = 1;
}

def Mlax_ScanOp : Mlax_Op<"scan",
    [IsolatedFromAbove, RecursiveMemoryEffects, AttrSizedOperandSegments]> {
  let summary = "loop over the leading axis of xs, carrying state (lax.scan)";
  let description = [{
    For t in 0..length-1 (length-1..0 with `reverse`): the body takes
    (carry..., xs[t]..., consts...) and yields (carry'..., ys[t]...). The
    results are the final carry and the stacked ys (leading axis `length`).
    `consts` are loop-invariant values the body closes over. `unroll` is
    how many iterations one loop trip runs.
    ```mlir
    %c, %ys = mlax.scan init(%c0) xs(%xs) consts() length = 3
        : (tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
    ^bb0(%c: tensor<f32>, %x: tensor<f32>):
      %s = mlax.add %c, %x : tensor<f32>
      mlax.yield %s, %s : tensor<f32>, tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$init, Variadic<Mlax_Tensor>:$xs,
                       Variadic<Mlax_Tensor>:$consts, I64Attr:$length,
                       UnitAttr:$reverse, DefaultValuedAttr<I64Attr, "1">:$unroll);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `init` `(` $init `)` `xs` `(` $xs `)` `consts` `(` $consts `)`
    `length` `=` $length (`reverse` $reverse^)? attr-dict
    `:` functional-type(operands, results) custom<Body>($body)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The final carry (the first `getInit().size()` results).
    ::mlir::ResultRange getCarryResults() {
      return getResults().take_front(getInit().size());
    }
    /// The stacked per-iteration outputs.
    ::mlir::ResultRange getYs() { return getResults().drop_front(getInit().size()); }
  }];
}
