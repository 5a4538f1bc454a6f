// Lowering of the reductions to (generic-form, unregistered) StableHLO.
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

//===----------------------------------------------------------------------===//
// Reductions: stablehlo.reduce with the combiner's identity as init
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum_f32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK: %[[R:.*]] = "stablehlo.reduce"(%[[X]], %[[INIT]]) ({
// CHECK-NEXT: ^bb0(%[[L:.*]]: tensor<f32>, %[[RR:.*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[L]], %[[RR]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: "stablehlo.return"(%[[S]]) : (tensor<f32>) -> ()
// CHECK-NEXT: }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: return %[[R]] : tensor<2xf32>
func.func @reduce_sum_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_sum_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_sum_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_sum_ui8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui8>, tensor<ui8>) -> tensor<2xui8>
func.func @reduce_sum_ui8(%x: tensor<2x3xui8>) -> tensor<2xui8> {
  %0 = mlax.reduce_sum %x, axes = [1] : tensor<2x3xui8> -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// CHECK-LABEL: func.func @reduce_prod_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_prod_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_prod_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_prod_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_prod %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_max_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_max_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_max_bf16(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0xFF80> : tensor<bf16>} : () -> tensor<bf16>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2xbf16>
func.func @reduce_max_bf16(%x: tensor<2x3xbf16>) -> tensor<2xbf16> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xbf16> -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// CHECK-LABEL: func.func @reduce_max_i32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
func.func @reduce_max_i32(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @reduce_max_i8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<-128> : tensor<i8>} : () -> tensor<i8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i8>, tensor<i8>) -> tensor<i8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi8>, tensor<i8>) -> tensor<2xi8>
func.func @reduce_max_i8(%x: tensor<2x3xi8>) -> tensor<2xi8> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// CHECK-LABEL: func.func @reduce_max_ui8(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui8>, tensor<ui8>) -> tensor<2xui8>
func.func @reduce_max_ui8(%x: tensor<2x3xui8>) -> tensor<2xui8> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xui8> -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// CHECK-LABEL: func.func @reduce_max_bool(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_max_bool(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_max %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_min_f32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
func.func @reduce_min_f32(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @reduce_min_f16(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<0x7C00> : tensor<f16>} : () -> tensor<f16>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<f16>, tensor<f16>) -> tensor<f16>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xf16>, tensor<f16>) -> tensor<2xf16>
func.func @reduce_min_f16(%x: tensor<2x3xf16>) -> tensor<2xf16> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// CHECK-LABEL: func.func @reduce_min_i64(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<i64>} : () -> tensor<i64>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
func.func @reduce_min_i64(%x: tensor<2x3xi64>) -> tensor<2xi64> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// CHECK-LABEL: func.func @reduce_min_ui32(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<4294967295> : tensor<ui32>} : () -> tensor<ui32>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xui32>, tensor<ui32>) -> tensor<2xui32>
func.func @reduce_min_ui32(%x: tensor<2x3xui32>) -> tensor<2xui32> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xui32> -> tensor<2xui32>
  return %0 : tensor<2xui32>
}

// CHECK-LABEL: func.func @reduce_min_bool(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.minimum"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_min_bool(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_min %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_and(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.and"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_and(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_and %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_or(
// CHECK: %[[INIT:.*]] = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
// CHECK: "stablehlo.reduce"(%{{.*}}, %[[INIT]]) ({
// CHECK: "stablehlo.or"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK: {dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
func.func @reduce_or(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %0 = mlax.reduce_or %x, axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// CHECK-LABEL: func.func @reduce_sum_all_axes(
// CHECK: "stablehlo.reduce"(%{{.*}}, %{{.*}}) ({
// CHECK: {dimensions = array<i64: 0, 2>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
func.func @reduce_sum_all_axes(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_sum %x, axes = [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// reduce (general): stablehlo.reduce with its operands, init values and
// body, the body's mlax ops lowered too
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_general_argmax(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi32>, %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<i32>)
// CHECK: %[[R:.*]]:2 = "stablehlo.reduce"(%[[X]], %[[I]], %[[A]], %[[B]]) ({
// CHECK-NEXT: ^bb0(%[[P:.*]]: tensor<f32>, %[[PI:.*]]: tensor<i32>, %[[Q:.*]]: tensor<f32>, %[[QI:.*]]: tensor<i32>):
// CHECK: "stablehlo.compare"(%[[P]], %[[Q]])
// CHECK: "stablehlo.select"
// CHECK: "stablehlo.select"
// CHECK: "stablehlo.return"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<i32>) -> ()
// CHECK-NEXT: }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<2xf32>, tensor<2xi32>
func.func @reduce_general_argmax(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>, %a: tensor<f32>, %b: tensor<i32>)
    -> (tensor<2xf32>, tensor<2xi32>) {
  %r:2 = mlax.reduce(%x, %i) init(%a, %b) dimensions = [1]
      : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%p: tensor<f32>, %pi: tensor<i32>, %q: tensor<f32>, %qi: tensor<i32>):
    %lt = mlax.compare LT, %p, %q : tensor<f32>
    %m = mlax.select_n %lt, %p, %q : tensor<i1>, tensor<f32>, tensor<f32>
    %j = mlax.select_n %lt, %pi, %qi : tensor<i1>, tensor<i32>, tensor<i32>
    mlax.yield %m, %j : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}

// A constant in the body stays in it and is lowered there.
// CHECK-LABEL: func.func @reduce_general_nested(
// CHECK: "stablehlo.reduce"(%{{.*}}, %{{.*}}) ({
// CHECK: "stablehlo.constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK: "stablehlo.multiply"
// CHECK: "stablehlo.add"
// CHECK: }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
func.func @reduce_general_nested(%x: tensor<2x3xf32>, %a: tensor<f32>) -> tensor<f32> {
  %r = mlax.reduce(%x) init(%a) dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %two = mlax.constant dense<2.0> : tensor<f32>
    %s = mlax.mul %q, %two : tensor<f32>
    %t = mlax.add %p, %s : tensor<f32>
    mlax.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}
