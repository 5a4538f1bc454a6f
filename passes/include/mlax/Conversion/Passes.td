//===- Passes.td - mlax conversion passes ---------------------------------===//

#ifndef MLAX_CONVERSION_PASSES_TD
#define MLAX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMlaxToStablehlo : Pass<"convert-mlax-to-stablehlo", "ModuleOp"> {
  let summary = "Lower the mlax dialect to StableHLO (generic op form)";
  let description = [{
    Rewrites every `mlax` op into StableHLO ops (`mlax.call` becomes
    `func.call`). StableHLO is not linked into mlax: its ops are created by
    name and its attributes parsed from their usual syntax, which needs the
    context to allow unregistered dialects (`mlax-opt` does by default). The
    output is meant to be printed and handed to XLA as text.

    ```mlir
    %0 = mlax.add %a, %b : tensor<4xf32>
    // becomes
    %0 = "stablehlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```

    Ops that map one-to-one onto a StableHLO op name it in their ODS and
    share one pattern; `check-coverage` makes the pass fail, naming them, if
    a registered mlax op has no lowering at all.

    `platform` names the backend the StableHLO is compiled for. Most ops
    lower the same everywhere; the decompositions (cholesky, eigh, qr,
    geqrf, svd) call the solver kernels jaxlib registers for that platform
    (LAPACK on `cpu`, cuSOLVER on `cuda`, hipSOLVER on `rocm`), as
    jax.lax.linalg does. An op with no kernel on the platform is an error
    naming the op and the platform.
  }];
  let options = [
    Option<"checkCoverage", "check-coverage", "bool", "false",
           "Fail if a registered mlax op has no lowering pattern (the "
           "transformation ops, expanded before the lowering, excepted)">,
    Option<"platform", "platform", "std::string", "\"cpu\"",
           "The platform the StableHLO is for: cpu, cuda, rocm or tpu (it "
           "picks the solver kernels the decompositions call)">,
  ];
}

#endif // MLAX_CONVERSION_PASSES_TD
