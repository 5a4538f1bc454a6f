// Calls with user-defined derivatives. Forward mode calls the jvp rule;
// reverse mode transposes the rule (the vjp of the rule with respect to its
// tangents, at zero tangents) or calls fwd and bwd. Once every request is
// expanded, the custom calls become plain calls.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff | FileCheck %s

func.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.exp %x : tensor<f32>
  return %0 : tensor<f32>
}
// A deliberately different rule: d f = 3 dx.
func.func private @f_rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.exp %x : tensor<f32>
  %c = mlax.constant dense<3.0> : tensor<f32>
  %1 = mlax.mul %c, %t : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func private @uses_f(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_jvp_call @f(%x) jvp_rule = @f_rule : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func.func private @f_rule_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[T:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[C:.*]] = mlax.constant dense<3.000000e+00>
// CHECK: %[[G:.*]] = mlax.mul %[[C]], %[[CT]]
// CHECK: return %{{.*}}, %{{.*}}, %[[G]]
// CHECK-LABEL: func.func private @uses_f(
// CHECK: mlax.call @f(
// CHECK-LABEL: func.func private @uses_f_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[T:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[R:.*]]:2 = mlax.call @f_rule(%[[X]], %[[T]])
// CHECK: return %{{.*}}, %[[R]]#1
// CHECK-LABEL: func.func private @uses_f_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[Z:.*]] = mlax.constant dense<0.000000e+00>
// CHECK: %[[R:.*]]:3 = mlax.call @f_rule_vjp(%[[X]], %[[Z]], %[[CT]])
// CHECK: return %{{.*}}, %[[R]]#2
func.func @fwd_and_rev(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %a:2 = mlax.jvp @uses_f(%x) tangents(%t) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  %b:2 = mlax.vjp @uses_f(%x) cotangents(%t) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#1, %b#1 : tensor<f32>, tensor<f32>
}

// -----

func.func private @g(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @g_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.sin %x : tensor<f32>
  %1 = mlax.cos %x : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func private @g_bwd(%cos: tensor<f32>, %ct: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %cos, %ct : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @uses_g(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_vjp_call @g(%x) fwd = @g_fwd bwd = @g_bwd : (tensor<f32>) -> tensor<f32>
  %1 = mlax.mul %0, %0 : tensor<f32>
  return %1 : tensor<f32>
}
// fwd's primal result stands for the call's (no custom_vjp call is left
// for a later forward-mode request to meet).
// CHECK-LABEL: func.func private @uses_g_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[F:.*]]:2 = mlax.call @g_fwd(%[[X]])
// CHECK-NEXT: %[[Y:.*]] = mlax.mul %[[F]]#0, %[[F]]#0
// CHECK-NOT: mlax.call @g(
// CHECK: %[[B:.*]] = mlax.call @g_bwd(%[[F]]#1, %{{.*}})
// CHECK: return %[[Y]], %[[B]]
func.func @rev(%x: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %b:2 = mlax.vjp @uses_g(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %b#1 : tensor<f32>
}

// -----

// stop_gradient blocks the derivative, then disappears.
func.func private @h(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.stop_gradient %x : tensor<f32>
  %1 = mlax.mul %0, %x : tensor<f32>
  return %1 : tensor<f32>
}
// CHECK-LABEL: func.func private @h_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK-NEXT: %[[Y:.*]] = mlax.mul %[[X]], %[[X]]
// CHECK: %[[G:.*]] = mlax.mul %[[X]], %[[CT]]
// CHECK-NEXT: return %[[Y]], %[[G]]
// CHECK-NOT: mlax.stop_gradient
func.func @stop(%x: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %b:2 = mlax.vjp @h(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %b#1 : tensor<f32>
}

// -----

// A rule that calls a custom_jvp function on its tangent (JAX's
// `f(cos(x) * t)`): transposing the rule transposes that call through its
// function @lin (2 t), as JAX's partial evaluation inlines it, never through
// its rule @lin_rule (here deliberately 5 t, and calling @lin on its own
// tangent, which through rules would recurse without end).
func.func private @lin(%x: tensor<f32>) -> tensor<f32> {
  %c = mlax.constant dense<2.0> : tensor<f32>
  %0 = mlax.mul %c, %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @lin_rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.custom_jvp_call @lin(%x) jvp_rule = @lin_rule : (tensor<f32>) -> tensor<f32>
  %c = mlax.constant dense<5.0> : tensor<f32>
  %1 = mlax.mul %c, %t : tensor<f32>
  %2 = mlax.custom_jvp_call @lin(%1) jvp_rule = @lin_rule : (tensor<f32>) -> tensor<f32>
  return %0, %2 : tensor<f32>, tensor<f32>
}
func.func private @s(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @s_rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.sin %x : tensor<f32>
  %1 = mlax.cos %x : tensor<f32>
  %2 = mlax.mul %1, %t : tensor<f32>
  %3 = mlax.custom_jvp_call @lin(%2) jvp_rule = @lin_rule : (tensor<f32>) -> tensor<f32>
  return %0, %3 : tensor<f32>, tensor<f32>
}
func.func private @uses_s(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_jvp_call @s(%x) jvp_rule = @s_rule : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func.func private @lin_vjp(
// CHECK-SAME: %{{[^ ,:)]*}}: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[C:.*]] = mlax.constant dense<2.000000e+00>
// CHECK: %[[G:.*]] = mlax.mul %[[C]], %[[CT]]
// CHECK: return %{{.*}}, %[[G]]
// CHECK-LABEL: func.func private @s_rule_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %{{[^ ,:)]*}}: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[COS:.*]] = mlax.cos %[[X]]
// CHECK: %[[P:.*]] = mlax.mul %[[COS]], %{{.*}}
// CHECK: %[[L:.*]]:2 = mlax.call @lin_vjp(%[[P]], %[[CT]])
// CHECK: %[[G:.*]] = mlax.mul %[[COS]], %[[L]]#1
// CHECK: return %{{.*}}, %{{.*}}, %[[G]]
// CHECK-NOT: lin_rule_vjp
func.func @rev_nested(%x: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %b:2 = mlax.vjp @uses_s(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %b#1 : tensor<f32>
}

// -----

// A rule that calls a custom_vjp function on its tangent (the solve of
// lax.custom_linear_solve): transposing the rule calls that function's fwd
// and bwd (its transpose there, since the rule is linear in the tangent),
// never differentiating its primal @solve (here a while loop, which reverse
// mode cannot go through).
func.func private @solve(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.while (%x) : (tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    %c = mlax.constant dense<1.0> : tensor<f32>
    %p = mlax.compare LT, %a, %c : tensor<f32>
    mlax.yield %p : tensor<i1>
  } body {
  ^bb0(%a: tensor<f32>):
    mlax.yield %a : tensor<f32>
  }
  return %0 : tensor<f32>
}
func.func private @solve_fwd(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.call @solve(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @solve_bwd(%ct: tensor<f32>) -> tensor<f32> {
  %c = mlax.constant dense<0.5> : tensor<f32>
  %0 = mlax.mul %c, %ct : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @ls(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_vjp_call @solve(%x) fwd = @solve_fwd bwd = @solve_bwd : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @ls_rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.custom_jvp_call @ls(%x) jvp_rule = @ls_rule : (tensor<f32>) -> tensor<f32>
  %1 = mlax.custom_jvp_call @ls(%t) jvp_rule = @ls_rule : (tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func private @uses_ls(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_jvp_call @ls(%x) jvp_rule = @ls_rule : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func.func private @ls_vjp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: mlax.call @solve_fwd(%[[X]])
// CHECK: %[[B:.*]] = mlax.call @solve_bwd(%[[CT]])
// CHECK: return %{{.*}}, %[[B]]
// CHECK-LABEL: func.func private @ls_rule_vjp(
// CHECK-SAME: %{{[^ ,:)]*}}: tensor<f32>, %[[T:[^ ,:)]*]]: tensor<f32>, %[[CT:[^ ,:)]*]]: tensor<f32>
// CHECK: %[[L:.*]]:2 = mlax.call @ls_vjp(%[[T]], %[[CT]])
// CHECK: return %{{.*}}, %{{.*}}, %[[L]]#1
// CHECK-NOT: solve_vjp
func.func @rev_solve(%x: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  %b:2 = mlax.vjp @uses_ls(%x) cotangents(%c) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %b#1 : tensor<f32>
}

// -----

// Forward mode over reverse mode of a function with a custom_vjp call (a
// hessian): the inner vjp, expanded first, replaces the call by calls of
// fwd and bwd, so the outer jvp differentiates those rules (the derivative
// of bwd with respect to its residual, which depends on %x), as JAX does,
// and meets no custom_vjp call.
func.func private @p(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.sin %x : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @p_fwd(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = mlax.sin %x : tensor<f32>
  %1 = mlax.cos %x : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}
func.func private @p_bwd(%cos: tensor<f32>, %ct: tensor<f32>) -> tensor<f32> {
  %0 = mlax.mul %cos, %ct : tensor<f32>
  return %0 : tensor<f32>
}
func.func private @uses_p(%x: tensor<f32>) -> tensor<f32> {
  %0 = mlax.custom_vjp_call @p(%x) fwd = @p_fwd bwd = @p_bwd : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @grad_p(%x: tensor<f32>) -> tensor<f32> {
  %one = mlax.constant dense<1.0> : tensor<f32>
  %b:2 = mlax.vjp @uses_p(%x) cotangents(%one) wrt = [0] seeds = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %b#1 : tensor<f32>
}
// CHECK-LABEL: func.func private @grad_p_jvp(
// CHECK-SAME: %[[X:[^ ,:)]*]]: tensor<f32>, %[[T:[^ ,:)]*]]: tensor<f32>
// CHECK: mlax.cos %[[X]]
// CHECK: %[[COS:.*]] = mlax.cos %[[X]]
// CHECK-NEXT: %[[SIN:.*]] = mlax.sin %[[X]]
// CHECK: %[[TS:.*]] = mlax.mul %[[T]], %[[SIN]]
// CHECK: %[[DCOS:.*]] = mlax.neg %[[TS]]
// CHECK: %[[G:.*]] = mlax.mul %[[COS]], %{{.*}}
// CHECK: %[[DG:.*]] = mlax.mul %[[DCOS]], %{{.*}}
// CHECK: return %[[G]], %[[DG]]
// CHECK-NOT: custom_vjp_call
// CHECK-NOT: mlax.jvp
func.func @fwd_over_rev(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %a:2 = mlax.jvp @grad_p(%x) tangents(%t) wrt = [0] : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %a#0, %a#1 : tensor<f32>, tensor<f32>
}
