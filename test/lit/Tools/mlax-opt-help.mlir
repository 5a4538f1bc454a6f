// mlax-opt --help lists the mlax dialect, its passes and its pipeline.
//
// RUN: mlax-opt --help | FileCheck %s

// CHECK: Available Dialects: {{.*}}mlax
// CHECK-DAG: --allow-unregistered-dialect
// CHECK-DAG: --convert-mlax-to-stablehlo {{.*}}Lower the mlax dialect to StableHLO
// CHECK-DAG: --mlax-default-pipeline {{.*}}inline, canonicalize, cse, symbol-dce, convert-mlax-to-stablehlo
// Upstream passes the default pipeline is built from are available on their own.
// CHECK-DAG: --canonicalize
// CHECK-DAG: --cse
// CHECK-DAG: --inline
// CHECK-DAG: --symbol-dce
