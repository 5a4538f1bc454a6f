//===- ConvertMlaxToStablehlo.cpp - mlax -> StableHLO ---------------------===//
//
// Ops whose StableHLO counterpart has the same operands and attribute names
// record that name in ODS (`getStablehloName()`) and share one pattern,
// here; the others have a pattern each, named after the op, in their
// family's Convert<Family>.cpp (constant, call and composite below). This file also
// holds the pass, which gathers every family's patterns.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Conversion/Passes.h"
#include "mlax/Conversion/MlaxToStablehlo/StablehloBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_CONVERTMLAXTOSTABLEHLO
#include "mlax/Conversion/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Same operands, same attributes, StableHLO name from ODS. An attribute
/// of mlax's own (`#mlax.accuracy` as `result_accuracy`) becomes StableHLO's.
template <typename OpTy>
struct OneToOnePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : op->getAttrs()) {
      if (auto accuracy = dyn_cast<ResultAccuracyAttr>(attr.getValue())) {
        Attribute lowered = hlo.resultAccuracy(accuracy);
        if (!lowered)
          return failure();
        attr = hlo.named(attr.getName(), lowered);
      }
      attrs.push_back(attr);
    }
    Operation *lowered =
        hlo.create(OpTy::getStablehloName(), adaptor.getOperands(),
                   op->getResultTypes(), attrs);
    rewriter.replaceOp(op, lowered->getResults());
    return success();
  }
};

template <typename OpTy, typename = void>
struct LowersOneToOne : std::false_type {};
template <typename OpTy>
struct LowersOneToOne<OpTy, std::enable_if_t<OpTy::lowersOneToOne()>> : std::true_type {};

/// A OneToOnePattern for every op in OpTys whose ODS names its StableHLO op
/// (Mlax_HloName / Mlax_ChloName); called with the whole generated op list.
template <typename... OpTys>
void addOneToOne(RewritePatternSet &patterns) {
  (
      [&] {
        if constexpr (LowersOneToOne<OpTys>::value)
          patterns.add<OneToOnePattern<OpTys>>(patterns.getContext());
      }(),
      ...);
}

/// Ops with no lowering pattern of their own: mlax-expand-transforms
/// replaces them by generated functions before the lowering runs.
bool expandedBeforeLowering(OperationName name) {
  return llvm::is_contained({"mlax.jvp", "mlax.vjp", "mlax.vmap"},
                            name.getStringRef());
}

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    auto type = cast<RankedTensorType>(op.getType());
    if (dense && !dense.isSplat() && type.getElementType().isInteger(1)) {
      // A non-splat i1 constant large enough to print as hex would be
      // printed in a layout jaxlib's parser rejects ("elements hex data size
      // is invalid"): hand it over as i8 and convert.
      auto i8 = RankedTensorType::get(type.getShape(), rewriter.getI8Type());
      SmallVector<int8_t> bytes;
      for (bool b : dense.getValues<bool>())
        bytes.push_back(b ? 1 : 0);
      Value c = hlo.constant(DenseElementsAttr::get(i8, ArrayRef<int8_t>(bytes)));
      rewriter.replaceOp(op, hlo.op("stablehlo.convert", {c}, type));
      return success();
    }
    rewriter.replaceOp(op, hlo.constant(op.getValue()));
    return success();
  }
};

struct CallPattern : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getResultTypes(),
                                              op.getCallee(),
                                              adaptor.getOperands());
    return success();
  }
};

/// stablehlo.composite, as jax lowers lax.composite: the attributes at
/// their defaults (no attributes, version 0) are left out, as jax prints them.
struct CompositePattern : OpConversionPattern<CompositeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompositeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StablehloBuilder hlo(rewriter, op.getLoc());
    SmallVector<NamedAttribute> attrs = {
        hlo.named("name", op.getNameAttr()),
        hlo.named("decomposition", op.getDecompositionAttr())};
    if (!op.getCompositeAttributes().empty())
      attrs.push_back(hlo.named("composite_attributes", op.getCompositeAttributesAttr()));
    if (op.getVersion() != 0)
      attrs.push_back(hlo.named("version", op.getVersionAttr()));
    Operation *lowered =
        hlo.create("composite", adaptor.getOperands(), op.getResultTypes(), attrs);
    rewriter.replaceOp(op, lowered->getResults());
    return success();
  }
};

struct ConvertMlaxToStablehloPass
    : mlax::impl::ConvertMlaxToStablehloBase<ConvertMlaxToStablehloPass> {
  using ConvertMlaxToStablehloBase::ConvertMlaxToStablehloBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (!ctx->allowsUnregisteredDialects()) {
      getOperation().emitError()
          << "convert-mlax-to-stablehlo emits StableHLO as unregistered ops; "
             "run with --allow-unregistered-dialect";
      return signalPassFailure();
    }
    std::optional<Platform> lowerFor = parsePlatform(platform);
    if (!lowerFor) {
      getOperation().emitError()
          << "convert-mlax-to-stablehlo: unknown platform '" << platform
          << "' (expected cpu, cuda, rocm or tpu)";
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    addOneToOne<
#define GET_OP_LIST
#include "mlax/Dialect/Mlax/IR/MlaxOps.cpp.inc"
        >(patterns);
    populateElementwiseToStablehloPatterns(patterns);
    populateReductionToStablehloPatterns(patterns);
    populateIndexingToStablehloPatterns(patterns);
    populateControlFlowToStablehloPatterns(patterns);
    populateConvToStablehloPatterns(patterns);
    populateLinalgToStablehloPatterns(patterns, *lowerFor);
    populateMathToStablehloPatterns(patterns);
    populateFftToStablehloPatterns(patterns);
    populateRandomToStablehloPatterns(patterns);
    populateCallbackToStablehloPatterns(patterns, *lowerFor);
    populateShardingToStablehloPatterns(patterns);
    patterns.add<ConstantPattern, CallPattern, CompositePattern>(ctx);

    if (checkCoverage) {
      llvm::DenseSet<OperationName> lowered;
      for (const auto &pattern : patterns.getNativePatterns())
        if (std::optional<OperationName> root = pattern->getRootKind())
          lowered.insert(*root);
      std::string missing;
      for (RegisteredOperationName name : ctx->getRegisteredOperations())
        if (name.getDialectNamespace() == MlaxDialect::getDialectNamespace() &&
            !lowered.contains(name) && !expandedBeforeLowering(name))
          missing += " " + name.getStringRef().str();
      if (!missing.empty()) {
        getOperation().emitError() << "mlax ops with no lowering:" << missing;
        return signalPassFailure();
      }
    }

    // Shardings first: the mesh check reads the constraints before they
    // become custom calls.
    if (failed(lowerShardings(getOperation())))
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MlaxDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

std::optional<Platform> mlir::mlax::parsePlatform(StringRef name) {
  return llvm::StringSwitch<std::optional<Platform>>(name)
      .Case("cpu", Platform::Cpu)
      .Case("cuda", Platform::Cuda)
      .Case("rocm", Platform::Rocm)
      .Case("tpu", Platform::Tpu)
      .Default(std::nullopt);
}

StringRef mlir::mlax::platformName(Platform platform) {
  switch (platform) {
  case Platform::Cpu:
    return "cpu";
  case Platform::Cuda:
    return "cuda";
  case Platform::Rocm:
    return "rocm";
  case Platform::Tpu:
    return "tpu";
  }
  llvm_unreachable("unknown platform");
}
