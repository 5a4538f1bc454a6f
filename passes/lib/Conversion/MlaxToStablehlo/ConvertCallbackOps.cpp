//===- ConvertCallbackOps.cpp - host_callback -> StableHLO -----------------===//
//
// mlax.host_callback -> the custom call jaxlib runs Python callbacks with, as
// jax/_src/callback.py emit_python_callback emits it: the typed-FFI
// (api_version 4) target xla_ffi_python_{cpu,gpu}_callback, whose
// `backend_config = {index = N : ui64}` picks the Nth of the callables
// handed to compile_and_load(host_callbacks=...). Always has_side_effect:
// XLA may neither drop nor merge the calls; a token threaded through the
// calls of a block keeps them in program order.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/AsmParser/AsmParser.h"
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
    // Calls run in program order: each takes the token the previous call of
    // its block returned (the first one a fresh `after_all`), as JAX threads
    // tokens through ordered effects. The Python side passes the token
    // through (host_callbacks.prepare).
    Type tokenType = parseType("!stablehlo.token", ctx);
    if (!tokenType)
      return op.emitOpError("internal error: cannot parse !stablehlo.token");
    Value token;
    for (Operation *prev = op->getPrevNode(); prev && !token; prev = prev->getPrevNode()) {
      auto name = prev->getAttrOfType<StringAttr>("call_target_name");
      if (prev->getName().getStringRef() == "stablehlo.custom_call" && name &&
          (name.getValue() == "xla_ffi_python_cpu_callback" ||
           name.getValue() == "xla_ffi_python_gpu_callback") &&
          prev->getNumResults() > 0 && prev->getResult(0).getType() == tokenType)
        token = prev->getResult(0);
    }
    if (!token)
      token = hlo.create("after_all", {}, tokenType)->getResult(0);
    SmallVector<Value> operands{token};
    operands.append(adaptor.getOperands().begin(), adaptor.getOperands().end());
    SmallVector<Type> resultTypes{tokenType};
    resultTypes.append(op.getResultTypes().begin(), op.getResultTypes().end());
    Operation *call = hlo.create(
        "custom_call", operands, resultTypes,
        {hlo.named("call_target_name", StringAttr::get(ctx, target)),
         hlo.named("api_version", IntegerAttr::get(IntegerType::get(ctx, 32), 4)),
         hlo.named("has_side_effect", BoolAttr::get(ctx, true)),
         hlo.named("backend_config",
                   DictionaryAttr::get(ctx, {NamedAttribute(StringAttr::get(ctx, "index"),
                                                            index)}))});
    rewriter.replaceOp(op, call->getResults().drop_front());
    return success();
  }
};

} // namespace

void mlir::mlax::populateCallbackToStablehloPatterns(RewritePatternSet &patterns,
                                                     Platform platform) {
  patterns.add<HostCallbackPattern>(patterns.getContext(), platform);
}
