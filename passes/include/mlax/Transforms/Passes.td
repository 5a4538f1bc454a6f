//===- Passes.td - mlax transform passes --------------------------------===//

#ifndef MLAX_TRANSFORMS_PASSES_TD
#define MLAX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MlaxFoldConstants : Pass<"mlax-fold-constants"> {
  let summary = "Fold every foldable op and erase dead pure ops";
  let description = [{
    Runs the op folders (constant folding and exact identities such as
    `x * 1`) over the whole operation, to a fixed point, and erases pure ops
    whose results are unused. Unlike `canonicalize` it applies no rewrite
    patterns, so its effect is exactly what the folders in
    the ops' `fold` hooks do. `--mlir-pass-statistics` reports how
    many ops were folded and erased and how many constants were created.

    ```mlir
    %c = mlax.constant dense<2.0> : tensor<f32>
    %0 = mlax.mul %c, %c : tensor<f32>
    // becomes
    %0 = mlax.constant dense<4.0> : tensor<f32>
    ```
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", "10",
           "How many times to sweep the IR at most">,
  ];
  let statistics = [
    Statistic<"numFolded", "num-folded",
              "Ops folded away (to a constant or an existing value)">,
    Statistic<"numDead", "num-dead", "Dead pure ops erased">,
    Statistic<"numConstants", "num-constants", "Constants created">,
  ];
}

def MlaxAutodiff : Pass<"mlax-autodiff", "ModuleOp"> {
  let summary = "Expand mlax.jvp and mlax.vjp into generated derivative functions";
  let description = [{
    For each `mlax.jvp` / `mlax.vjp`, generates a private function computing
    the callee's results and their tangents (forward mode) or the cotangents
    of the requested arguments (reverse mode), and replaces the op with an
    `mlax.call` of it. The callee is first flattened (its `mlax.call`s are
    inlined); each op's rule comes from its `DifferentiableOpInterface`.
    Requests whose callee itself contains requests are expanded after those,
    so derivatives of derivatives work in any order. Reverse mode recomputes
    the primal computation and keeps every primal value it needs; `cse`
    merges it with the original computation and `canonicalize` removes what
    is unused. Finally `custom_jvp_call`/`custom_vjp_call` become plain calls
    and `stop_gradient` is erased.

    ```mlir
    %y, %g = mlax.vjp @f(%x) cotangents(%one) wrt = [0] seeds = [0] : ...
    // becomes
    %y, %g = mlax.call @f_vjp(%x, %one) : ...
    ```
  }];
  let dependentDialects = ["::mlir::mlax::MlaxDialect", "::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numExpanded", "num-expanded", "mlax.jvp/mlax.vjp ops expanded">,
    Statistic<"numGenerated", "num-generated", "Derivative functions generated">,
  ];
}

def MlaxVectorize : Pass<"mlax-vectorize", "ModuleOp"> {
  let summary = "Expand mlax.vmap into generated batched functions";
  let description = [{
    For each `mlax.vmap`, generates a private function computing the callee
    on a whole batch at once and replaces the op with an `mlax.call` of it.
    Batched values carry the batch dimension in front (operands are
    transposed there on entry, results to their `out_axes` on exit); each op
    with a batched operand is rewritten by its `BatchableOpInterface` rule,
    which emits the batched op directly (a dot_general with a batch
    dimension, a reduction over shifted axes, ...), never a loop. Ops whose
    operands are all unbatched are copied unchanged. Nested `mlax.call`s are
    inlined; calls with custom derivatives are batched as a whole, rules
    included. Requests are expanded innermost first, like `mlax-autodiff`'s.

    ```mlir
    %y = mlax.vmap @f(%xs) in_axes = [0] out_axes = [0] size = 8 : ...
    // becomes
    %y = mlax.call @f_vmap(%xs) : ...
    ```
  }];
  let dependentDialects = ["::mlir::mlax::MlaxDialect", "::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numExpanded", "num-expanded", "mlax.vmap ops expanded">,
    Statistic<"numGenerated", "num-generated", "Batched functions generated">,
  ];
}

def MlaxExpandTransforms : Pass<"mlax-expand-transforms", "ModuleOp"> {
  let summary = "Expand every transformation request (mlax-vectorize and mlax-autodiff together)";
  let description = [{
    Expands `mlax.vmap`, `mlax.jvp` and `mlax.vjp` innermost first, whatever
    their nesting (grad of vmap of grad, ...). This is the first pass of
    `mlax-simplify-pipeline`.
  }];
  let dependentDialects = ["::mlir::mlax::MlaxDialect", "::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numExpanded", "num-expanded", "Transformation ops expanded">,
    Statistic<"numGenerated", "num-generated", "Functions generated">,
  ];
}

def MlaxDropUnusedArguments : Pass<"mlax-drop-unused-arguments", "ModuleOp"> {
  let summary = "Erase the arguments @main does not use; record the kept ones";
  let description = [{
    As `jax.jit` with `keep_unused=False`: the arguments of the public
    `@main` that nothing uses are erased, so the compiled program neither
    takes nor checks their buffers, and the indices of the arguments kept are
    recorded on `@main` as `mlax.kept_arguments` (absent when every argument
    is used). A `@main` with argument attributes is left alone. It runs last
    in `mlax-default-pipeline`, so what that pipeline prints is what XLA
    compiles.

    ```mlir
    func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
      return %b : tensor<f32>
    }
    // becomes
    func.func @main(%b: tensor<f32>) -> tensor<f32>
        attributes {mlax.kept_arguments = array<i64: 1>} {
      return %b : tensor<f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // MLAX_TRANSFORMS_PASSES_TD
