// Constants: a non-splat i1 constant is handed to jaxlib as i8 plus a
// convert (a large i1 constant printed as hex is rejected by jaxlib's parser:
// "elements hex data size is invalid"); splats and other types stay as they are.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @bools(
// CHECK: %[[C:.*]] = "stablehlo.constant"() {value = dense<{{\[}}[1, 0, 1], [0, 0, 1]]> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
// CHECK: %[[B:.*]] = "stablehlo.convert"(%[[C]]) : (tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK: return %[[B]]
func.func @bools() -> tensor<2x3xi1> {
  %0 = mlax.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @bool_splat(
// CHECK: "stablehlo.constant"() {value = dense<true> : tensor<4xi1>}
// CHECK-NOT: stablehlo.convert
func.func @bool_splat() -> tensor<4xi1> {
  %0 = mlax.constant dense<true> : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @ints(
// CHECK: "stablehlo.constant"() {value = dense<[1, 2, 3]> : tensor<3xi32>}
// CHECK-NOT: stablehlo.convert
func.func @ints() -> tensor<3xi32> {
  %0 = mlax.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %0 : tensor<3xi32>
}
