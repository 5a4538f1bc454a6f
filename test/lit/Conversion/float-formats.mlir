// The init value of reduce_max / reduce_min is -inf / +inf for float types
// that have infinities, and the lowest / highest finite value for those that
// do not (as jax.lax does): f8E4M3FN has NaN but no infinity (max 448),
// f4E2M1FN has neither (max 6).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @reduce_max_f16(
// CHECK: "stablehlo.constant"() {value = dense<0xFC00> : tensor<f16>} : () -> tensor<f16>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f16(%x: tensor<4xf16>) -> tensor<f16> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f8E5M2(
// CHECK: "stablehlo.constant"() {value = dense<0xFC> : tensor<f8E5M2>} : () -> tensor<f8E5M2>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f8E5M2(%x: tensor<4xf8E5M2>) -> tensor<f8E5M2> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf8E5M2> -> tensor<f8E5M2>
  return %0 : tensor<f8E5M2>
}

// -----

// CHECK-LABEL: func.func @reduce_sum_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.add"
func.func @reduce_sum_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_sum %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<-4.480000e+02> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_min_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<4.480000e+02> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.minimum"
func.func @reduce_min_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_min %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f4E2M1FN(
// CHECK: "stablehlo.constant"() {value = dense<-6.000000e+00> : tensor<f4E2M1FN>} : () -> tensor<f4E2M1FN>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f4E2M1FN(%x: tensor<4xf4E2M1FN>) -> tensor<f4E2M1FN> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf4E2M1FN> -> tensor<f4E2M1FN>
  return %0 : tensor<f4E2M1FN>
}

// -----

// CHECK-LABEL: func.func @reduce_min_f4E2M1FN(
// CHECK: "stablehlo.constant"() {value = dense<6.000000e+00> : tensor<f4E2M1FN>} : () -> tensor<f4E2M1FN>
// CHECK: "stablehlo.minimum"
func.func @reduce_min_f4E2M1FN(%x: tensor<4xf4E2M1FN>) -> tensor<f4E2M1FN> {
  %0 = mlax.reduce_min %x, axes = [0] : tensor<4xf4E2M1FN> -> tensor<f4E2M1FN>
  return %0 : tensor<f4E2M1FN>
}
