// Lowering of mlax.shard_map and the collectives as jax emits them for
// GSPMD: per operand `custom_call @Sharding` + `@SPMDFullToShardShape`
// (`{manual}`), a call of the body, per result `custom_call @Sharding`
// (`{manual}`) + `@SPMDShardToFullShape`; collectives with replica groups of
// partition ids (row-major mesh positions; members in group order), a channel
// handle unique in the module and `use_global_device_ids` where StableHLO
// has it. test/py/test_shard_map_ir.py runs these against jax.shard_map.
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func @main(%[[A:[^:]*]]: tensor<8x4xf32>, %[[B:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT: %[[S0:.*]] = "stablehlo.custom_call"(%[[A]]) {call_target_name = "Sharding", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[L0:.*]] = "stablehlo.custom_call"(%[[S0]]) {call_target_name = "SPMDFullToShardShape", mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[S1:.*]] = "stablehlo.custom_call"(%[[B]]) {call_target_name = "Sharding", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[L1:.*]] = "stablehlo.custom_call"(%[[S1]]) {call_target_name = "SPMDFullToShardShape", mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[R:.*]]:2 = call @body(%[[L0]], %[[L1]]) : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[M0:.*]] = "stablehlo.custom_call"(%[[R]]#0) {call_target_name = "Sharding", mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[G0:.*]] = "stablehlo.custom_call"(%[[M0]]) {call_target_name = "SPMDShardToFullShape", mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[M1:.*]] = "stablehlo.custom_call"(%[[R]]#1) {call_target_name = "Sharding", mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[G1:.*]] = "stablehlo.custom_call"(%[[M1]]) {call_target_name = "SPMDShardToFullShape", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[G0]], %[[G1]]
func.func @main(%a: tensor<8x4xf32>, %b: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>) {
  %r:2 = mlax.shard_map @body(%a, %b)
      in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>]
      out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>]
      : (tensor<8x4xf32>, tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<8x4xf32>, tensor<4xf32>
}

// The replica groups over ["data"], ["model"], ["data", "model"] and
// ["model", "data"] of a 4x2 mesh; channel handles 1, 2, ...
// CHECK-LABEL: func.func private @body(
// CHECK: "stablehlo.all_reduce"(%{{.*}}) ({
// CHECK: "stablehlo.add"
// CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[}}[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: "stablehlo.all_reduce"(%{{.*}}) ({
// CHECK: "stablehlo.maximum"
// CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}
// CHECK: "stablehlo.all_reduce"(%{{.*}}) ({
// CHECK: "stablehlo.minimum"
// CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}
// CHECK: "stablehlo.all_reduce"(%{{.*}}) ({
// CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<{{\[}}[0, 2, 4, 6, 1, 3, 5, 7]]> : tensor<1x8xi64>, use_global_device_ids}
// CHECK: %[[E:.*]] = "stablehlo.reshape"(%{{.*}}) : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: "stablehlo.all_gather"(%[[E]]) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<{{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids} : (tensor<1x4xf32>) -> tensor<2x4xf32>
// CHECK: "stablehlo.all_gather"(%{{.*}}) {all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<{{\[}}[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<2x16xf32>
// CHECK: %[[RS:.*]] = "stablehlo.reduce_scatter"(%{{.*}}) ({
// CHECK: "stablehlo.add"
// CHECK: }) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<{{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: "stablehlo.reshape"(%[[RS]]) : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.collective_permute"(%{{.*}}) {channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>, source_target_pairs = dense<{{\[}}[0, 2], [2, 4], [4, 6], [6, 0], [1, 3], [3, 5], [5, 7], [7, 1]]> : tensor<8x2xi64>}
// CHECK: "stablehlo.collective_permute"(%{{.*}}) {channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>, source_target_pairs = dense<{{\[}}[7, 0], [0, 5]]> : tensor<2x2xi64>}
// CHECK: %[[X:.*]] = "stablehlo.reshape"(%{{.*}}) : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
// CHECK-NEXT: %[[Y:.*]] = "stablehlo.all_to_all"(%[[X]]) {channel_handle = #stablehlo.channel_handle<handle = 10, type = 1>, concat_dimension = 2 : i64, replica_groups = dense<{{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64} : (tensor<2x4x1xf32>) -> tensor<1x4x2xf32>
// CHECK-NEXT: "stablehlo.reshape"(%[[Y]]) : (tensor<1x4x2xf32>) -> tensor<4x2xf32>
// CHECK: "stablehlo.all_to_all"(%{{.*}}) {channel_handle = #stablehlo.channel_handle<handle = 11, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[}}[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64} : (tensor<2x4xf32>) -> tensor<8x1xf32>
func.func private @body(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>) {
  %0 = mlax.all_reduce sum %a in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<2x4xf32>
  %1 = mlax.all_reduce max %0 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] : tensor<2x4xf32>
  %2 = mlax.all_reduce min %1 in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] : tensor<2x4xf32>
  %3 = mlax.all_reduce sum %2 in #mlax.mesh<["data"=4, "model"=2]> over ["model", "data"] : tensor<2x4xf32>
  %4 = mlax.all_gather %b in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 0 : i64} : tensor<4xf32> -> tensor<2x4xf32>
  %5 = mlax.all_gather %3 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 1 : i64, tiled} : tensor<2x4xf32> -> tensor<2x16xf32>
  %6 = mlax.reduce_scatter %4 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {dimension = 0 : i64} : tensor<2x4xf32> -> tensor<4xf32>
  %7 = mlax.ppermute %3 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>} : tensor<2x4xf32>
  %8 = mlax.ppermute %7 in #mlax.mesh<["data"=4, "model"=2]> over ["model", "data"] {pairs = array<i64: 7, 0, 0, 5>} : tensor<2x4xf32>
  %9 = mlax.all_to_all %8 in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64} : tensor<2x4xf32> -> tensor<4x2xf32>
  %10 = mlax.all_to_all %8 in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {split_dimension = 1 : i64, concat_dimension = 0 : i64, tiled} : tensor<2x4xf32> -> tensor<8x1xf32>
  %11 = mlax.reshape %9 : tensor<4x2xf32> -> tensor<2x4xf32>
  return %11, %6 : tensor<2x4xf32>, tensor<4xf32>
}

// -----

// axis_index: partition_id, converted to i32; each axis's coordinate is the
// id divided by the axis's row-major stride, modulo its size (a division by
// 1 or a modulo that cannot wrap is left out), combined row-major in the
// order given.
// CHECK-LABEL: func.func @axis_index(
// CHECK: %[[P:.*]] = "stablehlo.partition_id"() : () -> tensor<ui32>
// CHECK-NEXT: %[[I:.*]] = "stablehlo.convert"(%[[P]]) : (tensor<ui32>) -> tensor<i32>
// CHECK-NEXT: %[[C2:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT: %[[D:.*]] = "stablehlo.divide"(%[[I]], %[[C2]])
// CHECK: %[[P2:.*]] = "stablehlo.partition_id"()
// CHECK-NEXT: %[[I2:.*]] = "stablehlo.convert"(%[[P2]])
// CHECK-NEXT: %[[K2:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[M:.*]] = "stablehlo.remainder"(%[[I2]], %[[K2]])
// CHECK: %[[P3:.*]] = "stablehlo.partition_id"()
// CHECK-NEXT: %[[I3:.*]] = "stablehlo.convert"(%[[P3]])
// CHECK-NEXT: %[[K0:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[D3:.*]] = "stablehlo.divide"(%[[I3]], %[[K0]])
// CHECK-NEXT: %[[K1:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[M3:.*]] = "stablehlo.remainder"(%[[I3]], %[[K1]])
// CHECK-NEXT: %[[K2:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[MUL3:.*]] = "stablehlo.multiply"(%[[D3]], %[[K2]])
// CHECK-NEXT: %[[ADD3:.*]] = "stablehlo.add"(%[[MUL3]], %[[M3]])
// CHECK-NEXT: %[[P4:.*]] = "stablehlo.partition_id"()
// CHECK-NEXT: %[[I4:.*]] = "stablehlo.convert"(%[[P4]])
// CHECK-NEXT: %[[K3:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[MOD:.*]] = "stablehlo.remainder"(%[[I4]], %[[K3]])
// CHECK-NEXT: %[[K4:.*]] = "stablehlo.constant"() {value = dense<2> : tensor<i32>}
// CHECK-NEXT: %[[DIV:.*]] = "stablehlo.divide"(%[[I4]], %[[K4]])
// CHECK-NEXT: %[[K5:.*]] = "stablehlo.constant"() {value = dense<4> : tensor<i32>}
// CHECK-NEXT: %[[MUL:.*]] = "stablehlo.multiply"(%[[MOD]], %[[K5]])
// CHECK-NEXT: %[[ADD:.*]] = "stablehlo.add"(%[[MUL]], %[[DIV]])
// CHECK-NEXT: return %[[D]], %[[M]], %[[ADD3]], %[[ADD]]
func.func @axis_index() -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) {
  %0 = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data"]
  %1 = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["model"]
  %2 = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"]
  %3 = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["model", "data"]
  return %0, %1, %2, %3 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
}
