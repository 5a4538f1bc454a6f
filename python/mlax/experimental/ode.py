"""mlax.experimental.ode: as jax.experimental.ode (odeint, the adaptive
Dormand-Prince integrator, and its algorithm's pieces)."""
from mlax._src.experimental.ode import (  # noqa: F401
    abs2, fit_4th_order_polynomial, initial_step_size, interp_fit_dopri, mean_error_ratio,
    odeint, optimal_step_size, ravel_first_arg, runge_kutta_step)
