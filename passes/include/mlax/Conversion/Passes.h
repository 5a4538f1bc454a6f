//===- Passes.h - mlax conversion passes ------------------------*- C++ -*-===//
#ifndef MLAX_CONVERSION_PASSES_H
#define MLAX_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <optional>

namespace mlir::mlax {

/// The platforms convert-mlax-to-stablehlo lowers for (its `platform`
/// option): they differ only in the kernels the decompositions call.
enum class Platform { Cpu, Cuda, Rocm, Tpu };

/// `cpu`, `cuda`, `rocm` or `tpu` as a Platform; nullopt for other names.
std::optional<Platform> parsePlatform(llvm::StringRef name);
llvm::StringRef platformName(Platform platform);

#define GEN_PASS_DECL
#include "mlax/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mlax/Conversion/Passes.h.inc"

/// The lowerings of compare, select_n and convert (ConvertElementwiseOps.cpp;
/// the one-to-one elementwise ops share ConvertMlaxToStablehlo.cpp's pattern).
void populateElementwiseToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of the reductions (ConvertReductionOps.cpp).
void populateReductionToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of take, gather and scatter (ConvertIndexingOps.cpp).
void populateIndexingToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of conv_general_dilated and the window ops
/// (ConvertConvOps.cpp), used by convert-mlax-to-stablehlo.
void populateConvToStablehloPatterns(RewritePatternSet &patterns);

/// The lowerings of dot_general, cholesky, triangular_solve, eigh, qr and svd
/// (ConvertLinalgOps.cpp); the decompositions call `platform`'s kernels.
void populateLinalgToStablehloPatterns(RewritePatternSet &patterns, Platform platform);

/// The lowerings of the ops in MlaxMathOps.td, sort included (ConvertMathOps.cpp).
void populateMathToStablehloPatterns(RewritePatternSet &patterns);

/// The lowering of fft (ConvertFftOps.cpp).
void populateFftToStablehloPatterns(RewritePatternSet &patterns);

/// The lowering of rng_bit_generator (ConvertRandomOps.cpp).
void populateRandomToStablehloPatterns(RewritePatternSet &patterns);

/// The lowering of host_callback to the Python-callback custom call and of
/// ffi_call to a custom call of its target
/// (ConvertCallbackOps.cpp).
void populateCallbackToStablehloPatterns(RewritePatternSet &patterns, Platform platform);

/// The lowering of sharding_constraint to `custom_call @Sharding`
/// (ConvertShardingOps.cpp).
void populateShardingToStablehloPatterns(RewritePatternSet &patterns);

/// Turns the `mlax.sharding` attributes of the functions' arguments and
/// results into `mhlo.sharding` strings and, when the module holds any
/// sharding, sets `mhlo.num_partitions`/`mhlo.num_replicas` on it; fails,
/// with a diagnostic, if two shardings use different meshes
/// (ConvertShardingOps.cpp).
LogicalResult lowerShardings(ModuleOp module);

/// The lowerings of cond, while and scan (ConvertControlFlow.cpp).
void populateControlFlowToStablehloPatterns(RewritePatternSet &patterns);

} // namespace mlir::mlax

#endif // MLAX_CONVERSION_PASSES_H
