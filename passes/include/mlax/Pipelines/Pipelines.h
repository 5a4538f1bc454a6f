//===- Pipelines.h - mlax named pipelines and registration ------*- C++ -*-===//
#ifndef MLAX_PIPELINES_PIPELINES_H
#define MLAX_PIPELINES_PIPELINES_H

#include "mlax/Conversion/Passes.h"
#include "mlax/Transforms/Passes.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::mlax {

/// inline, canonicalize, cse, symbol-dce: the mlax-level simplifications.
/// Registered as `mlax-simplify-pipeline`.
void buildSimplifyPipeline(OpPassManager &pm);

/// The pipeline `jit` runs: simplify the mlax module, then lower it.
/// Registered as `mlax-default-pipeline`; spelled out in docs/pipeline.md.
void buildDefaultPipeline(OpPassManager &pm);

/// Registers every mlax pass and named pipeline with the global registry.
void registerAllMlaxPasses();

} // namespace mlir::mlax

#endif // MLAX_PIPELINES_PIPELINES_H
