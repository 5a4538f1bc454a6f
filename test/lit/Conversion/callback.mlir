// Lowering of mlax.host_callback to the custom call jaxlib runs Python
// callbacks with (jax/_src/callback.py emit_python_callback): typed FFI,
// side-effecting, the callable's index in backend_config; a token threads
// the calls of a block in program order (one after_all per block).
//
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
// RUN: mlax-opt %s --convert-mlax-to-stablehlo=platform=cuda | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: func.func @main(
// CHECK: %[[T0:.*]] = "stablehlo.after_all"() : () -> !stablehlo.token
// CHECK: %[[T1:.*]] = "stablehlo.custom_call"(%[[T0]], %{{.*}}) {api_version = 4 : i32, backend_config = {index = 0 : ui64}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true} : (!stablehlo.token, tensor<3xf32>) -> !stablehlo.token
// CHECK: %[[R:.*]]:2 = "stablehlo.custom_call"(%[[T1]], %{{.*}}, %{{.*}}) {api_version = 4 : i32, backend_config = {index = 1 : ui64}, call_target_name = "xla_ffi_python_cpu_callback", has_side_effect = true} : (!stablehlo.token, tensor<3xf32>, tensor<i32>) -> (!stablehlo.token, tensor<3xf32>)
// CHECK-NOT: after_all
// CHECK: return %[[R]]#1
// GPU: call_target_name = "xla_ffi_python_gpu_callback"
func.func @main(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<3xf32>) -> ()
  %y = mlax.host_callback %x, %n {callback = 1 : i64, kind = "pure", vmap_method = "sequential"}
      : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
