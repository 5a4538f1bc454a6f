// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched function mlax-vectorize generates for the elementwise ops (moved
// from ops.mlir). The first listed operands are batched along axis 0, the
// others are not (in_axes -1). Regenerate the CHECK lines with
// tools/generate-test-checks.py --only '_vmap$' and review them.

// CHECK-LABEL: func.func private @neg_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.neg %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @neg(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.neg %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_neg(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @neg(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @reduce_precision_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_precision %[[ARG0]] {exponent_bits = 8 : i32, mantissa_bits = 7 : i32} : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @reduce_precision(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.reduce_precision %a0 {exponent_bits = 8 : i32, mantissa_bits = 7 : i32} : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_reduce_precision(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @reduce_precision(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @exp_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.exp %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @exp(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.exp %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_exp(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @exp(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @log_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.log %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @log(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @log(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @sin_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sin %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @sin(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sin %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sin(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sin(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @cos_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cos %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @cos(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.cos %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_cos(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @cos(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @tan_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.tan %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @tan(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tan %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tan(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @tan(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @tanh_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.tanh %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @tanh(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.tanh %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_tanh(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @tanh(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @sqrt_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sqrt %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @sqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sqrt(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sqrt(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @rsqrt_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.rsqrt %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @rsqrt(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rsqrt %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rsqrt(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @rsqrt(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @abs_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.abs %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @abs(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.abs %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_abs(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @abs(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @sign_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sign %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @sign(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sign %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sign(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sign(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @floor_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.floor %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @floor(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.floor %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_floor(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @floor(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @ceil_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.ceil %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @ceil(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.ceil %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_ceil(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @ceil(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @round_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.round %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @round(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @round(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @round_even_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.round_even %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @round_even(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.round_even %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_round_even(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @round_even(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @logistic_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.logistic %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @logistic(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.logistic %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_logistic(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @logistic(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @log1p_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.log1p %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @log1p(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.log1p %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_log1p(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @log1p(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @expm1_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.expm1 %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @expm1(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.expm1 %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_expm1(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @expm1(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @add_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @add(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.add %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_add(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @add(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @sub_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.sub %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @sub(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sub %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sub(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sub(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @mul_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @mul(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.mul %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_mul(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @mul(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @div_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.div %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @div(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.div %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_div(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @div(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @pow_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.pow %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @pow(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.pow %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_pow(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @pow(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @max_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.max %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @max(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.max %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_max(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @max(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @min_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.min %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @min(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.min %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_min(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @min(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @rem_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.rem %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @rem(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.rem %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_rem(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @rem(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @atan2_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.atan2 %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xf32>
func.func private @atan2(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.atan2 %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_atan2(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @atan2(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @select_n_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<3xi1>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [1] : tensor<3xi1> -> tensor<5x3xi1>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.select_n %[[V3]], %[[ARG1]], %[[ARG2]] : tensor<5x3xi1>, tensor<5x3xf32>, tensor<5x3xf32>
// CHECK-NEXT: return %[[V4]] : tensor<5x3xf32>
func.func private @select_n(%a0: tensor<3xi1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.select_n %a0, %a1, %a2 : tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_select_n(%a0: tensor<3xi1>, %a1: tensor<5x3xf32>, %a2: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @select_n(%a0, %a1, %a2) in_axes = [-1, 0, 0] out_axes = [0] size = 5 : (tensor<3xi1>, tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @convert_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<5x3xf32> -> tensor<5x3xf16>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf16>
func.func private @convert(%a0: tensor<3xf32>) -> tensor<3xf16> {
  %0 = mlax.convert %a0 : tensor<3xf32> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @test_convert(%a0: tensor<5x3xf32>) -> tensor<5x3xf16> {
  %r = mlax.vmap @convert(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf16>
  return %r : tensor<5x3xf16>
}

// CHECK-LABEL: func.func private @convert_to_int_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<5x3xf32> -> tensor<5x3xi32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xi32>
func.func private @convert_to_int(%a0: tensor<3xf32>) -> tensor<3xi32> {
  %0 = mlax.convert %a0 : tensor<3xf32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
func.func @test_convert_to_int(%a0: tensor<5x3xf32>) -> tensor<5x3xi32> {
  %r = mlax.vmap @convert_to_int(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xi32>
  return %r : tensor<5x3xi32>
}

// CHECK-LABEL: func.func private @erf_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.erf %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @erf(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @erf(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @erf_inv_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.erf_inv %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @erf_inv(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.erf_inv %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_erf_inv(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @erf_inv(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @compare_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.compare LT, %[[ARG0]], %[[ARG1]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x3xi1>
func.func private @compare(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xi1> {
  %0 = mlax.compare LT, %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xi1>
}
func.func @test_compare(%a0: tensor<5x3xf32>, %a1: tensor<5x3xf32>) -> tensor<5x3xi1> {
  %r = mlax.vmap @compare(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<5x3xi1>
  return %r : tensor<5x3xi1>
}

// CHECK-LABEL: func.func private @select_n_scalar_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5xi1>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG2:[^ ,:)]*]]: tensor<3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [0] : tensor<5xi1> -> tensor<5x3xi1>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG2]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.select_n %[[V3]], %[[ARG1]], %[[V4]] : tensor<5x3xi1>, tensor<5x3xf32>, tensor<5x3xf32>
// CHECK-NEXT: return %[[V5]] : tensor<5x3xf32>
func.func private @select_n_scalar(%a0: tensor<i1>, %a1: tensor<3xf32>, %a2: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.select_n %a0, %a1, %a2 : tensor<i1>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_select_n_scalar(%a0: tensor<5xi1>, %a1: tensor<5x3xf32>, %a2: tensor<3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @select_n_scalar(%a0, %a1, %a2) in_axes = [0, 0, -1] out_axes = [0] size = 5 : (tensor<5xi1>, tensor<5x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// Complex parts: elementwise, batched by the default rule.

// CHECK-LABEL: func.func private @real_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xcomplex<f32>>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.real %[[ARG0]] : tensor<5x3xcomplex<f32>>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @real(%a0: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = mlax.real %a0 : tensor<3xcomplex<f32>>
  return %0 : tensor<3xf32>
}
func.func @test_real(%a0: tensor<5x3xcomplex<f32>>) -> tensor<5x3xf32> {
  %r = mlax.vmap @real(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xcomplex<f32>>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @imag_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xcomplex<f64>>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.imag %[[ARG0]] : tensor<5x3xcomplex<f64>>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf64>
func.func private @imag(%a0: tensor<3xcomplex<f64>>) -> tensor<3xf64> {
  %0 = mlax.imag %a0 : tensor<3xcomplex<f64>>
  return %0 : tensor<3xf64>
}
func.func @test_imag(%a0: tensor<5x3xcomplex<f64>>) -> tensor<5x3xf64> {
  %r = mlax.vmap @imag(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xcomplex<f64>>) -> tensor<5x3xf64>
  return %r : tensor<5x3xf64>
}

// CHECK-LABEL: func.func private @conj_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xcomplex<f32>>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.conj %[[ARG0]] : tensor<5x3xcomplex<f32>>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xcomplex<f32>>
func.func private @conj(%a0: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = mlax.conj %a0 : tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @test_conj(%a0: tensor<5x3xcomplex<f32>>) -> tensor<5x3xcomplex<f32>> {
  %r = mlax.vmap @conj(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xcomplex<f32>>) -> tensor<5x3xcomplex<f32>>
  return %r : tensor<5x3xcomplex<f32>>
}

// The unbatched imaginary part is broadcast to the batch.
// CHECK-LABEL: func.func private @complex_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.complex %[[ARG0]], %[[V2]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x3xcomplex<f32>>
func.func private @complex(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<3xcomplex<f32>> {
  %0 = mlax.complex %a0, %a1 : tensor<3xf32>
  return %0 : tensor<3xcomplex<f32>>
}
func.func @test_complex(%a0: tensor<5x3xf32>, %a1: tensor<3xf32>) -> tensor<5x3xcomplex<f32>> {
  %r = mlax.vmap @complex(%a0, %a1) in_axes = [0, -1] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<3xf32>) -> tensor<5x3xcomplex<f32>>
  return %r : tensor<5x3xcomplex<f32>>
}
