//===- Pipelines.cpp - mlax pass registration and named pipelines ---------===//

#include "mlax/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlax::buildSimplifyPipeline(OpPassManager &pm) {
  pm.addPass(createMlaxExpandTransforms());
  pm.addPass(createInlinerPass());
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
      "inline, "
      "canonicalize, "
      "cse, symbol-dce",
      buildSimplifyPipeline);
  PassPipelineRegistration<>(
      "mlax-default-pipeline",
      "What mlax.jit runs: mlax-expand-transforms, inline, canonicalize, cse, "
      "symbol-dce, "
      "convert-mlax-to-stablehlo, mlax-drop-unused-arguments",
      buildDefaultPipeline);
}
