//===- Passes.h - mlax passes -----------------------------------*- C++ -*-===//
#ifndef MLAX_PASSES_PASSES_H
#define MLAX_PASSES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mlax {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// inline, canonicalize, cse, symbol-dce: the mlax-level simplifications.
/// Registered as `mlax-simplify-pipeline`.
void buildSimplifyPipeline(OpPassManager &pm);

/// The pipeline `jit` runs: simplify the mlax module, then lower it.
/// Registered as `mlax-default-pipeline`; spelled out in docs/pipeline.md.
void buildDefaultPipeline(OpPassManager &pm);

/// The lowerings of conv_general_dilated and the window ops
/// (passes/ConvertConvOps.cpp), used by convert-mlax-to-stablehlo.
void populateConvToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of triangular_solve, eigh, qr and svd
/// (passes/ConvertLinalgOps.cpp).
void populateLinalgToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of the ops in MlaxMathOps.td (passes/ConvertMathOps.cpp).
void populateMathToStablehloPatterns(RewritePatternSet &patterns);

/// The lowering of fft (passes/ConvertFftOps.cpp).
void populateFftToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of cond, while and scan (passes/ConvertControlFlow.cpp).
void populateControlFlowToStablehloPatterns(RewritePatternSet &patterns);

/// Registers every mlax pass and named pipeline with the global registry.
void registerAllMlaxPasses();

} // namespace mlir::mlax

#endif // MLAX_PASSES_PASSES_H
