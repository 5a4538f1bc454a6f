//===- Passes.h - mlax passes -----------------------------------*- C++ -*-===//
#ifndef MLAX_PASSES_PASSES_H
#define MLAX_PASSES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
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

/// Registers every mlax pass and named pipeline with the global registry.
void registerAllMlaxPasses();

} // namespace mlir::mlax

#endif // MLAX_PASSES_PASSES_H
