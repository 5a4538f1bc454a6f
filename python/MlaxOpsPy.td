// Input for the generated Python op classes (mlax/_src/dialect/_mlax_ops_gen.py).
include "Mlax/MlaxOps.td"
