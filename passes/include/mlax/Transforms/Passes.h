//===- Passes.h - mlax transform passes -------------------------*- C++ -*-===//
#ifndef MLAX_TRANSFORMS_PASSES_H
#define MLAX_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mlax {

#define GEN_PASS_DECL
#include "mlax/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlax/Transforms/Passes.h.inc"

} // namespace mlir::mlax

#endif // MLAX_TRANSFORMS_PASSES_H
