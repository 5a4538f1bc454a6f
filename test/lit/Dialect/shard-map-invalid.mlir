// Errors of #mlax.mesh, mlax.shard_map and the collectives: each names the
// axis, pair, dimension or type at fault.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @mesh_axis_twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{mesh axis "data" appears twice in the mesh}}
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["data"=4, "data"=2]> over ["data"] : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @unknown_axis(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.all_reduce' op axes names mesh axis "x", which is not in the mesh ["data"=4, "model"=2]}}
  %0 = mlax.all_reduce sum %x in #mlax.mesh<["data"=4, "model"=2]> over ["x"] : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @repeated_axis(%x: tensor<8xf32>) -> tensor<32x8xf32> {
  // expected-error @+2 {{'mlax.all_gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.all_gather' op axes names mesh axis "data" twice}}
  %0 = mlax.all_gather %x in #mlax.mesh<["data"=4, "model"=2]> over ["data", "data"] {dimension = 0 : i64} : tensor<8xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @no_axes(%x: tensor<8xf32>) -> tensor<i32> {
  // expected-error @+1 {{'mlax.axis_index' op axes must name at least one mesh axis}}
  %0 = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over []
  return %0 : tensor<i32>
}

// -----

func.func @gather_wrong_result(%x: tensor<8xf32>) -> tensor<8x8xf32> {
  // expected-error @+2 {{'mlax.all_gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.all_gather' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<8x8xf32>'}}
  %0 = mlax.all_gather %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64} : tensor<8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @gather_dimension(%x: tensor<8xf32>) -> tensor<32xf32> {
  // expected-error @+2 {{'mlax.all_gather' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.all_gather' op dimension 1 is out of range for an operand of rank 1}}
  %0 = mlax.all_gather %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 1 : i64, tiled} : tensor<8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

func.func @scatter_not_group_size(%x: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+2 {{'mlax.reduce_scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_scatter' op dimension 0 has size 8, but not tiled it must be the group size 4 of axes ["data"]}}
  %0 = mlax.reduce_scatter %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64} : tensor<8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @scatter_not_divisible(%x: tensor<6xf32>) -> tensor<1xf32> {
  // expected-error @+2 {{'mlax.reduce_scatter' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.reduce_scatter' op dimension 0 of size 6 is not divisible by the group size 4 of axes ["data"]}}
  %0 = mlax.reduce_scatter %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64, tiled} : tensor<6xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @ppermute_out_of_range(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.ppermute' op pair (0, 4) is out of range: positions in a group of axes ["data"] are 0 to 3}}
  %0 = mlax.ppermute %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 4>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @ppermute_repeated_source(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.ppermute' op source 0 appears in two pairs (sources must be distinct)}}
  %0 = mlax.ppermute %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 0, 2>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @ppermute_repeated_destination(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.ppermute' op destination 1 appears in two pairs (destinations must be distinct)}}
  %0 = mlax.ppermute %x in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"] {pairs = array<i64: 0, 1, 2, 1>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @ppermute_odd_pairs(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.ppermute' op pairs must be flattened (source, destination) pairs; it has 3 entries}}
  %0 = mlax.ppermute %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 2>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @all_to_all_split_size(%x: tensor<4x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'mlax.all_to_all' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.all_to_all' op split dimension 0 has size 4, but not tiled it must be the group size 2 of axes ["model"] (as jax.lax.all_to_all)}}
  %0 = mlax.all_to_all %x in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64} : tensor<4x3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @all_to_all_not_divisible(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{'mlax.all_to_all' op failed to infer returned types}}
  // expected-error @+1 {{'mlax.all_to_all' op split dimension 0 of size 3 is not divisible by the group size 2 of axes ["model"]}}
  %0 = mlax.all_to_all %x in #mlax.mesh<["data"=4, "model"=2]> over ["model"] {split_dimension = 0 : i64, concat_dimension = 1 : i64, tiled} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func private @body(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @callee_type_mismatch(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op operand #0 of type 'tensor<8x4xf32>' sharded as #mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]> has pieces of type 'tensor<1x4xf32>', but @body takes 'tensor<2x4xf32>'}}
  %r = mlax.shard_map @body(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data", "model"}]>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func private @body(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @callee_result_mismatch(%a: tensor<8x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op result #0 of type 'tensor<2x4xf32>' sharded as #mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]> has pieces of type 'tensor<2x2xf32>', but @body returns 'tensor<2x4xf32>'}}
  %r = mlax.shard_map @body(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4, "model"=2], [{}, {"model"}]>] : (tensor<8x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @no_callee(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op callee 'missing' does not name a func.func}}
  %r = mlax.shard_map @missing(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func private @body(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @not_divisible(%a: tensor<6x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op operand #0: dimension 0 of size 6 is not divisible by 4, the size of mesh axes {"data"} (in 'tensor<6x4xf32>')}}
  %r = mlax.shard_map @body(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<6x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func private @body(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @two_meshes(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op result #0 is sharded over the mesh ["data"=4], but the shard_map's mesh is ["data"=4, "model"=2]; all its shardings use one mesh}}
  %r = mlax.shard_map @body(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] out [#mlax.sharding<["data"=4], [{"data"}]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

func.func private @body(%a: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @sharding_count(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'mlax.shard_map' op has 1 operands but 2 in_shardings}}
  %r = mlax.shard_map @body(%a) in [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>, #mlax.sharding<["data"=4, "model"=2], []>] out [#mlax.sharding<["data"=4, "model"=2], [{"data"}]>] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
