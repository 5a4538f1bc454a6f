// Verifier errors of mlax.host_callback.
//
// RUN: mlax-opt %s --split-input-file --verify-diagnostics

func.func @negative_index(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.host_callback' op callback index -1 is negative}}
  mlax.host_callback %x {callback = -1 : i64, kind = "debug"} : (tensor<f32>) -> ()
  return
}

// -----

func.func @bad_kind(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.host_callback' op kind must be "debug", "pure" or "io", got "print"}}
  mlax.host_callback %x {callback = 0 : i64, kind = "print"} : (tensor<f32>) -> ()
  return
}

// -----

func.func @debug_with_results(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op of kind "debug" has no results, got 1}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @bad_vmap_method(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op vmap_method must be one of "sequential", "sequential_unrolled", "expand_dims", "broadcast_all"; got "loop"}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "pure", vmap_method = "loop"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @vmap_method_on_io(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op vmap_method is only for kind "pure"}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "io", vmap_method = "sequential"} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @ordered_pure(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlax.host_callback' op of kind "pure" cannot be ordered}}
  %y = mlax.host_callback %x {callback = 0 : i64, kind = "pure", ordered} : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @missing_kind(%x: tensor<f32>) {
  // expected-error @+1 {{'mlax.host_callback' op requires attribute 'kind'}}
  mlax.host_callback %x {callback = 0 : i64} : (tensor<f32>) -> ()
  return
}
