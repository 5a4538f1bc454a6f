"""Runs the tracer-leak cases (tracer_leak_cases.py) in a fresh interpreter.

Both leak checkers, mlax's and JAX's, collect garbage and search referrers
when a trace outlives its end; their cost grows with every object the process
holds. Inside a suite worker, which by then holds every earlier test's
objects, the cases took 77 s; in a fresh interpreter they take a few seconds.
"""
import os
import subprocess
import sys

def test_leak_cases_in_a_fresh_process():
    cases = os.path.join(os.path.dirname(__file__), "tracer_leak_cases.py")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", cases, "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-p", "no:randomly"],
        capture_output=True, text=True, timeout=600, cwd=os.path.dirname(__file__))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    # (every case ran: a file that collected nothing would also exit non-zero)
    assert " passed" in proc.stdout and "failed" not in proc.stdout, proc.stdout[-3000:]
