// RUN: mlax-opt %s --mlax-vectorize | FileCheck %s

// The batched function mlax-vectorize generates for one op of each kind
// (rules in dialects/Mlax/MlaxBatching.cpp). The first listed operands are
// batched along axis 0, the others are not (in_axes -1). Regenerate the CHECK
// lines with tools/generate-test-checks.py --only '_vmap$' and review them.

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

// CHECK-LABEL: func.func private @stop_gradient_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.stop_gradient %[[ARG0]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @stop_gradient(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.stop_gradient %a0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_stop_gradient(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @stop_gradient(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
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

// CHECK-LABEL: func.func private @broadcast_in_dim_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x1x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG0]], dims = [0, 2, 3] : tensor<5x1x3xf32> -> tensor<5x2x4x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x4x3xf32>
func.func private @broadcast_in_dim(%a0: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = mlax.broadcast_in_dim %a0, dims = [1, 2] : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
func.func @test_broadcast_in_dim(%a0: tensor<5x1x3xf32>) -> tensor<5x2x4x3xf32> {
  %r = mlax.vmap @broadcast_in_dim(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x1x3xf32>) -> tensor<5x2x4x3xf32>
  return %r : tensor<5x2x4x3xf32>
}

// CHECK-LABEL: func.func private @reshape_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reshape %[[ARG0]] : tensor<5x2x3xf32> -> tensor<5x6xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x6xf32>
func.func private @reshape(%a0: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = mlax.reshape %a0 : tensor<2x3xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
func.func @test_reshape(%a0: tensor<5x2x3xf32>) -> tensor<5x6xf32> {
  %r = mlax.vmap @reshape(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// CHECK-LABEL: func.func private @transpose_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.transpose %[[ARG0]], permutation = [0, 2, 1] : tensor<5x2x3xf32> -> tensor<5x3x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3x2xf32>
func.func private @transpose(%a0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = mlax.transpose %a0, permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @test_transpose(%a0: tensor<5x2x3xf32>) -> tensor<5x3x2xf32> {
  %r = mlax.vmap @transpose(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x3x2xf32>
  return %r : tensor<5x3x2xf32>
}

// CHECK-LABEL: func.func private @slice_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x6xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.slice %[[ARG0]], start = [0, 1], limit = [5, 5], strides = [1, 2] : tensor<5x6xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @slice(%a0: tensor<6xf32>) -> tensor<2xf32> {
  %0 = mlax.slice %a0, start = [1], limit = [5], strides = [2] : tensor<6xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_slice(%a0: tensor<5x6xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @slice(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x6xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @concatenate_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.concatenate(%[[ARG0]], %[[ARG1]]) dim = 1 : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<5x5xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x5xf32>
func.func private @concatenate(%a0: tensor<2xf32>, %a1: tensor<3xf32>) -> tensor<5xf32> {
  %0 = mlax.concatenate(%a0, %a1) dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @test_concatenate(%a0: tensor<5x2xf32>, %a1: tensor<5x3xf32>) -> tensor<5x5xf32> {
  %r = mlax.vmap @concatenate(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x2xf32>, tensor<5x3xf32>) -> tensor<5x5xf32>
  return %r : tensor<5x5xf32>
}

// CHECK-LABEL: func.func private @pad_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.pad %[[ARG0]], %[[V2]], low = [0, 1], high = [0, 2], interior = [0, 1] : tensor<5x3xf32>, tensor<f32> -> tensor<5x8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.constant dense<true> : tensor<5x3xi1>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.constant dense<false> : tensor<i1>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.pad %[[V4]], %[[V5]], low = [0, 1], high = [0, 2], interior = [0, 1] : tensor<5x3xi1>, tensor<i1> -> tensor<5x8xi1>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.broadcast_in_dim %[[ARG1]], dims = [0] : tensor<5xf32> -> tensor<5x8xf32>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.select_n %[[V6]], %[[V7]], %[[V3]] : tensor<5x8xi1>, tensor<5x8xf32>, tensor<5x8xf32>
// CHECK-NEXT: return %[[V8]] : tensor<5x8xf32>
func.func private @pad(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<8xf32> {
  %0 = mlax.pad %a0, %a1, low = [1], high = [2], interior = [1] : tensor<3xf32>, tensor<f32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @test_pad(%a0: tensor<5x3xf32>, %a1: tensor<5xf32>) -> tensor<5x8xf32> {
  %r = mlax.vmap @pad(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x3xf32>, tensor<5xf32>) -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// CHECK-LABEL: func.func private @reduce_sum_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_sum %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_sum(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_sum %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_sum(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_sum(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_prod_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_prod %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_prod(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_prod %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_prod(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_prod(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_max_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_max %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_max(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_max %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_max(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_max(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
}

// CHECK-LABEL: func.func private @reduce_min_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.reduce_min %[[ARG0]], axes = [2] : tensor<5x2x3xf32> -> tensor<5x2xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2xf32>
func.func private @reduce_min(%a0: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = mlax.reduce_min %a0, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @test_reduce_min(%a0: tensor<5x2x3xf32>) -> tensor<5x2xf32> {
  %r = mlax.vmap @reduce_min(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2xf32>
  return %r : tensor<5x2xf32>
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

// CHECK-LABEL: func.func private @cumsum_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.cumsum %[[ARG0]], axis = 2 : tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x2x3xf32>
func.func private @cumsum(%a0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.cumsum %a0, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_cumsum(%a0: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @cumsum(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

// CHECK-LABEL: func.func private @sort_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.sort %[[ARG0]] {dimension = 1 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: return %[[V1]] : tensor<5x3xf32>
func.func private @sort(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = mlax.sort %a0 {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_sort(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @sort(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func private @dot_general_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x2x3xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x3x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [0] x [0], contract = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT: return %[[V2]] : tensor<5x2x4xf32>
func.func private @dot_general(%a0: tensor<2x3xf32>, %a1: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @test_dot_general(%a0: tensor<5x2x3xf32>, %a1: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %r = mlax.vmap @dot_general(%a0, %a1) in_axes = [0, 0] out_axes = [0] size = 5 : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %r : tensor<5x2x4xf32>
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

// CHECK-LABEL: func.func private @iota_add_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<5x3xf32>
// CHECK-NEXT: %[[V1:[^ ,:)]*]] = mlax.iota dim = 0 : tensor<3xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V1]], dims = [1] : tensor<3xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.add %[[ARG0]], %[[V2]] : tensor<5x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x3xf32>
func.func private @iota_add(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %i = mlax.iota dim = 0 : tensor<3xf32>
  %0 = mlax.add %a0, %i : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @test_iota_add(%a0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %r = mlax.vmap @iota_add(%a0) in_axes = [0] out_axes = [0] size = 5 : (tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
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

// CHECK-LABEL: func.func private @dot_general_batch_vmap(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<2x3x4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<5x2x4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.dot_general %[[ARG0]], %[[ARG1]], batch = [0] x [1], contract = [2] x [2] : (tensor<2x3x4xf32>, tensor<5x2x4xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.transpose %[[V2]], permutation = [2, 0, 1] : tensor<2x3x5xf32> -> tensor<5x2x3xf32>
// CHECK-NEXT: return %[[V3]] : tensor<5x2x3xf32>
func.func private @dot_general_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %0 = mlax.dot_general %a0, %a1, batch = [0] x [0], contract = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @test_dot_general_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<5x2x4xf32>) -> tensor<5x2x3xf32> {
  %r = mlax.vmap @dot_general_batch(%a0, %a1) in_axes = [-1, 0] out_axes = [0] size = 5 : (tensor<2x3x4xf32>, tensor<5x2x4xf32>) -> tensor<5x2x3xf32>
  return %r : tensor<5x2x3xf32>
}

