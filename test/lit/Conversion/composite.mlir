// Lowering of mlax.composite to stablehlo.composite, as jax lowers
// lax.composite: the name, the decomposition (lowered like any function) and
// the attributes carry over; composite_attributes and version are left out
// at their defaults, as jax leaves them.
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func private @my.tangent(
// CHECK: "stablehlo.sine"
// CHECK: "stablehlo.cosine"
// CHECK: "stablehlo.divide"
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = "stablehlo.composite"(%[[X]]) {decomposition = @my.tangent, name = "my.tangent"} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[R]]
func.func private @my.tangent(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = mlax.sin %x : tensor<3xf32>
  %c = mlax.cos %x : tensor<3xf32>
  %t = mlax.div %s, %c : tensor<3xf32>
  return %t : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = mlax.composite "my.tangent" @my.tangent(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @main(
// CHECK: %{{.*}}:2 = "stablehlo.composite"(%{{.*}}, %{{.*}}) {composite_attributes = {axis = 1 : i64, flags = [true, "x"], kind = f32}, decomposition = @my.pair, name = "my.pair", version = 3 : i32} : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
func.func private @my.pair(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %y = mlax.add %x, %x : tensor<2xf32>
  return %y, %n : tensor<2xf32>, tensor<i32>
}
func.func @main(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %r:2 = mlax.composite "my.pair" @my.pair(%x, %n)
      {composite_attributes = {axis = 1 : i64, flags = [true, "x"], kind = f32}, version = 3 : i32}
      : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<i32>
}
