// mlax-opt allows unregistered dialects (the StableHLO the conversion emits)
// unless the command line sets --allow-unregistered-dialect itself. Other
// arguments that merely contain that text, such as an output file name, must
// not switch the default off.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo --allow-unregistered-dialect | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo --allow-unregistered-dialect=true | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo -o %t.allow-unregistered-dialect.mlir
// RUN: FileCheck %s < %t.allow-unregistered-dialect.mlir

// CHECK-LABEL: func.func @neg(
// CHECK: "stablehlo.negate"
func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
