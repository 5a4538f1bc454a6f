// Lowering of shardings as jax emits them for GSPMD: mlax.sharding_constraint
// becomes `stablehlo.custom_call @Sharding` carrying the `mhlo.sharding`
// string, `mlax.sharding` on function arguments and results becomes
// `mhlo.sharding`, and a module with shardings gets `mhlo.num_partitions`
// (the mesh's devices) and `mhlo.num_replicas = 1`. The strings are XLA's
// iota tile form, canonical as XLA prints it (test/py/test_sharding_ir.py
// compiles them and checks the per-device shapes).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
// CHECK-SAME: %{{[^:]*}}: tensor<8x8xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"},
// CHECK-SAME: %{{[^:]*}}: tensor<8x8xf32> {mhlo.sharding = "{replicated}"},
// CHECK-SAME: %{{[^:]*}}: tensor<f32>)
// CHECK-SAME: -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"}, tensor<8x8xf32>)
// CHECK-NOT: mlax.sharding
// CHECK-NEXT: %[[A:.*]] = "stablehlo.custom_call"(%[[X]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[B:.*]] = "stablehlo.custom_call"(%[[A]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[C:.*]] = "stablehlo.custom_call"(%[[B]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[4,2]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[D:.*]] = "stablehlo.custom_call"(%[[C]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[E:.*]] = "stablehlo.custom_call"(%[[D]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[8,1]<=[8]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[F:.*]] = "stablehlo.custom_call"(%[[E]]) {call_target_name = "Sharding", mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[F]], %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>
func.func @main(%x: tensor<8x8xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>},
                %y: tensor<8x8xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>},
                %z: tensor<8x8xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], []>},
                %s: tensor<f32>)
    -> (tensor<8x8xf32> {mlax.sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {"model"}]>}, tensor<8x8xf32>) {
  %a = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {}]>} : tensor<8x8xf32>
  %b = mlax.sharding_constraint %a {sharding = #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>} : tensor<8x8xf32>
  %c = mlax.sharding_constraint %b {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {"model"}]>} : tensor<8x8xf32>
  %d = mlax.sharding_constraint %c {sharding = #mlax.sharding<["data"=4, "model"=2], [{"model"}, {"data"}]>} : tensor<8x8xf32>
  %e = mlax.sharding_constraint %d {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]>} : tensor<8x8xf32>
  %f = mlax.sharding_constraint %e {sharding = #mlax.sharding<["data"=4, "model"=2], []>} : tensor<8x8xf32>
  return %f, %y : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Three mesh axes: the tile assignment lists the mesh axes as the spec uses
// them, the unused last; XLA's canonical form drops size-1 axes and merges
// axes that stay adjacent (here "b", "c" -> one axis of 4).
// CHECK-LABEL: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"
// CHECK: mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
// CHECK: mhlo.sharding = "{devices=[1,2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"
// CHECK: mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"
// CHECK: mhlo.sharding = "{devices=[4,2]<=[8]}"
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["a"=2, "b"=2, "c"=2], [{"b", "c"}, {"a"}]>} : tensor<8x8xf32>
  %1 = mlax.sharding_constraint %0 {sharding = #mlax.sharding<["a"=2, "b"=2, "c"=2], [{"a"}]>} : tensor<8x8xf32>
  %2 = mlax.sharding_constraint %1 {sharding = #mlax.sharding<["a"=2, "b"=2, "c"=2], [{}, {"b"}]>} : tensor<8x8xf32>
  %3 = mlax.sharding_constraint %2 {sharding = #mlax.sharding<["a"=2, "b"=2, "c"=2], [{"c"}, {"a", "b"}]>} : tensor<8x8xf32>
  %4 = mlax.sharding_constraint %3 {sharding = #mlax.sharding<["a"=2, "b"=2, "c"=2], [{"a", "b"}, {"c"}]>} : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

// -----

// Splitting over size-1 axes only is no split.
// CHECK-LABEL: module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: mhlo.sharding = "{devices=[2,1]<=[2]}"
// CHECK: mhlo.sharding = "{replicated}"
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = mlax.sharding_constraint %x {sharding = #mlax.sharding<["one"=1, "two"=2], [{"two"}, {"one"}]>} : tensor<8x8xf32>
  %1 = mlax.sharding_constraint %0 {sharding = #mlax.sharding<["one"=1, "two"=2], [{"one"}]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Other argument attributes stay beside the lowered sharding.
// CHECK-LABEL: module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func @main(%{{[^:]*}}: tensor<4xf32> {jax.buffer_donor = true, mhlo.sharding = "{devices=[2]<=[2]}"})
func.func @main(%x: tensor<4xf32> {jax.buffer_donor = true, mlax.sharding = #mlax.sharding<["x"=2], [{"x"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Every function's shardings are lowered, a callee's too; they share the mesh.
// CHECK-LABEL: module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func private @callee(%{{[^:]*}}: tensor<4xf32> {mhlo.sharding = "{devices=[4]<=[4]}"})
// CHECK: func.func @main(
// CHECK: call @callee
func.func private @callee(%x: tensor<4xf32> {mlax.sharding = #mlax.sharding<["x"=4], [{"x"}]>}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Without shardings, no partition counts.
// CHECK-LABEL: module {
// CHECK-NOT: mhlo.num_partitions
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
