//===- Pipelines.cpp - mlax pass registration and named pipelines ---------===//

#include "mlax/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlax::buildSimplifyPipeline(OpPassManager &pm) {
  pm.addPass(createMlaxExpandTransforms());
  // The functions the expansion differentiated or vectorized are dead once
  // every transform op is replaced by a call of the generated function:
  // dropping them before the inliner spares it (and the canonicalize after
  // it) inlining calls inside functions nobody calls. The output is the
  // same; on the gradient of a vectorized special function (hyp2f1, 13k
  // ops traced) inline + canonicalize + cse take half the time.
  pm.addPass(createSymbolDCEPass());
  // No canonicalization inside the inliner (its default): the canonicalize
  // that follows does the same work once, over the whole module. mlax's
  // calls are direct, so no call becomes inlinable only after simplifying.
  // On a 10k-op gradient this halves the time of the two passes together.
  // Set as an option, so that the pipeline prints (and reparses) that way.
  std::unique_ptr<Pass> inliner = createInlinerPass();
  (void)inliner->initializeOptions("default-pipeline=''",
                                   [](const Twine &) { return failure(); });
  pm.addPass(std::move(inliner));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSymbolDCEPass());
}

void mlax::buildDefaultPipeline(OpPassManager &pm) {
  buildSimplifyPipeline(pm);
  pm.addPass(createConvertMlaxToStablehlo());
  pm.addPass(createMlaxDropUnusedArguments());
}

void mlax::registerAllMlaxPasses() {
  registerMlaxTransformsPasses();
  registerMlaxConversionPasses();
  PassPipelineRegistration<>(
      "mlax-simplify-pipeline",
      "The mlax-level part of the default pipeline: mlax-expand-transforms, "
      "symbol-dce, inline, "
      "canonicalize, "
      "cse, symbol-dce",
      buildSimplifyPipeline);
  PassPipelineRegistration<>(
      "mlax-default-pipeline",
      "What mlax.jit runs: mlax-expand-transforms, symbol-dce, inline, "
      "canonicalize, cse, "
      "symbol-dce, "
      "convert-mlax-to-stablehlo, mlax-drop-unused-arguments",
      buildDefaultPipeline);
}
