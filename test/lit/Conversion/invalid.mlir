// convert-mlax-to-stablehlo creates StableHLO ops by name, so it needs a
// context that allows unregistered dialects (mlax-opt allows them unless told
// otherwise). Without one the pass reports the problem on the module.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo --allow-unregistered-dialect=false --verify-diagnostics
//
// The module itself is fine without unregistered dialects:
// RUN: mlax-opt %s --allow-unregistered-dialect=false | FileCheck %s
// CHECK: mlax.neg

// expected-error @+1 {{convert-mlax-to-stablehlo emits StableHLO as unregistered ops; run with --allow-unregistered-dialect}}
module {
  func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = mlax.neg %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
