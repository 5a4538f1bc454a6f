//===- ConvertCallbackOps.cpp - host_callback -> StableHLO -----------------===//
//
// mlax.host_callback -> the custom call jaxlib runs Python callbacks with, as
// jax/_src/callback.py emit_python_callback emits it: the typed-FFI
// (api_version 4) target xla_ffi_python_{cpu,gpu}_callback, whose
// `backend_config = {index = N : ui64}` picks the Nth of the callables
// handed to compile_and_load(host_callbacks=...). Always has_side_effect:
// XLA may neither drop nor merge the calls.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::mlax;

namespace {

struct HostCallbackPattern : OpConversionPattern<HostCallbackOp> {
  HostCallbackPattern(MLIRContext *ctx, Platform platform)
      : OpConversionPattern(ctx), platform(platform) {}
  Platform platform;

  LogicalResult
  matchAndRewrite(HostCallbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (platform == Platform::Tpu)
      return op.emitOpError("host callbacks are not supported on TPU by mlax");
    StablehloBuilder hlo(rewriter, op.getLoc());
    MLIRContext *ctx = op.getContext();
    StringRef target = platform == Platform::Cpu ? "xla_ffi_python_cpu_callback"
                                                 : "xla_ffi_python_gpu_callback";
    auto index = IntegerAttr::get(IntegerType::get(ctx, 64, IntegerType::Unsigned),
                                  (uint64_t)op.getCallback());
    Operation *call = hlo.create(
        "custom_call", adaptor.getOperands(), op.getResultTypes(),
        {hlo.named("call_target_name", StringAttr::get(ctx, target)),
         hlo.named("api_version", IntegerAttr::get(IntegerType::get(ctx, 32), 4)),
         hlo.named("has_side_effect", BoolAttr::get(ctx, true)),
         hlo.named("backend_config",
                   DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(ctx, "index"),
                                                            index)}))});
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

} // namespace

void mlir::mlax::populateCallbackToStablehloPatterns(RewritePatternSet &patterns,
                                                     Platform platform) {
  patterns.add<HostCallbackPattern>(patterns.getContext(), platform);
}
