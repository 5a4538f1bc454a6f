//===- ConvertCallbackOps.cpp - host_callback, ffi_call -> StableHLO -------===//
//
// mlax.host_callback -> the custom call jaxlib runs Python callbacks with, as
// jax/_src/callback.py emit_python_callback emits it: the typed-FFI
// (api_version 4) target xla_ffi_python_{cpu,gpu}_callback, whose
// `backend_config = {index = N : ui64}` picks the Nth of the callables
// handed to compile_and_load(host_callbacks=...). Always has_side_effect:
// XLA may neither drop nor merge the calls; a token threaded through the
// calls of a block keeps them in program order.
//
// mlax.ffi_call -> stablehlo.custom_call @target, as jax/_src/ffi.py
// (ffi_lowering, through mlir.custom_call) emits it.
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

// Layouts as custom_call spells them: `dense<[...]> : tensor<Nxindex>`.
static Attribute ffiLayouts(MLIRContext *ctx, ArrayRef<SmallVector<int64_t>> layouts) {
  SmallVector<Attribute> out;
  for (const SmallVector<int64_t> &order : layouts) {
    auto t = RankedTensorType::get({(int64_t)order.size()}, IndexType::get(ctx));
    out.push_back(DenseIntElementsAttr::get(t, order));
  }
  return ArrayAttr::get(ctx, out);
}

struct FfiCallPattern : OpConversionPattern<FfiCallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FfiCallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    MLIRContext *ctx = op.getContext();
    // The typed FFI (api_version 4) takes its attributes as a dictionary,
    // which JAX hands over as the discardable `mhlo.backend_config` beside
    // an empty string and api_version 1; the legacy APIs take the string.
    int32_t version = op.getApiVersion();
    Attribute config = op.getBackendConfigAttr();
    auto text = dyn_cast_or_null<StringAttr>(config);
    SmallVector<SmallVector<int64_t>> operandLayouts, resultLayouts;
    for (unsigned i = 0; i < op.getNumOperands(); ++i)
      operandLayouts.push_back(op.getOperandLayout(i));
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      resultLayouts.push_back(op.getResultLayout(i));
    SmallVector<NamedAttribute> attrs{
        hlo.named("call_target_name", op.getTargetNameAttr()),
        hlo.named("api_version",
                  IntegerAttr::get(IntegerType::get(ctx, 32), version == 4 ? 1 : version)),
        hlo.named("backend_config", text ? text : StringAttr::get(ctx, "")),
        hlo.named("called_computations", ArrayAttr::get(ctx, {})),
        hlo.named("has_side_effect", BoolAttr::get(ctx, op.getHasSideEffect())),
        hlo.named("operand_layouts", ffiLayouts(ctx, operandLayouts)),
        hlo.named("result_layouts", ffiLayouts(ctx, resultLayouts))};
    if (version == 4)
      attrs.push_back(hlo.named("mhlo.backend_config",
                                config ? config : DictionaryAttr::get(ctx, {})));
    // Always present (empty without aliases), as JAX emits it; a single
    // result is named by no tuple index.
    SmallVector<Attribute> aliases;
    ArrayRef<int64_t> pairs = op.getInputOutputAliases().value_or(ArrayRef<int64_t>());
    for (size_t k = 0; k + 1 < pairs.size(); k += 2) {
      std::string outIndex =
          op.getNumResults() > 1 ? std::to_string(pairs[k + 1]) : std::string();
      Attribute alias = hlo.attr("#stablehlo.output_operand_alias<output_tuple_indices = [" +
                                 outIndex + "], operand_index = " + std::to_string(pairs[k]) +
                                 ", operand_tuple_indices = []>");
      if (!alias)
        return op.emitOpError("internal error: cannot build an output_operand_alias");
      aliases.push_back(alias);
    }
    attrs.push_back(hlo.named("output_operand_aliases", ArrayAttr::get(ctx, aliases)));
    Operation *call =
        hlo.create("custom_call", adaptor.getOperands(), op.getResultTypes(), attrs);
    rewriter.replaceOp(op, call->getResults());
    return success();
  }
};

} // namespace

void mlir::mlax::populateCallbackToStablehloPatterns(RewritePatternSet &patterns,
                                                     Platform platform) {
  patterns.add<HostCallbackPattern>(patterns.getContext(), platform);
  patterns.add<FfiCallPattern>(patterns.getContext());
}
