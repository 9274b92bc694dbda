"""torch/optim/lbfgs.py - L-BFGS: a quasi-Newton method that remembers the last few steps and gradient changes.

Mirrors PyTorch's torch/optim/lbfgs.py (itself a port of Lua torch's optim.lbfgs and
optim.lswolfe, after Mark Schmidt's minFunc).
Guide: docs/source/internals/programs/optim.rst

Unlike the other optimizers, one ``step(closure)`` runs a whole inner loop of up to
``max_iter`` iterations, calling ``closure`` (forward + backward, returning the loss)
whenever it needs the loss and gradient at a new point. All parameters are treated as one
flat vector: ``_gather_flat_grad`` concatenates their gradients, ``_add_grad`` adds a slice
of a flat update to each.
"""

import torch

from .optimizer import Optimizer, _check_non_negative, _check_tensor_hyperparameter, _reject_complex, _to_scalar

__all__ = ["LBFGS"]


# [marker: cubic_interpolate]
def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2,
    clamped to ``bounds`` (by default the interval between x1 and x2); the middle of the
    interval when the cubic has no minimum."""
    # (Lua torch's optim/polyinterp.lua, the two-point case)
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)

    # With x2 the farther point:
    #   d1 = g1 + g2 - 3 (f1 - f2) / (x1 - x2);   d2 = sqrt(d1^2 - g1 g2)
    #   min_pos = x2 - (x2 - x1) (g2 + d2 - d1) / (g2 - g1 + 2 d2)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    else:
        return (xmin_bound + xmax_bound) / 2.0
# [end marker: cubic_interpolate]


# [marker: strong_wolfe]
def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step length ``t`` along ``d`` from ``x`` that meets the strong Wolfe conditions:

    * sufficient decrease (Armijo): ``f(x + t d) <= f + c1 t gtd``;
    * curvature: ``|g(x + t d) . d| <= -c2 gtd``, the slope has flattened enough.

    ``obj_func(x, t, d)`` returns the loss and flat gradient at ``x + t d``; ``f``, ``g``
    and ``gtd = g . d`` (< 0, a descent direction) are the values at ``x``. First bracket an
    interval that must hold such a point, growing ``t`` by cubic extrapolation; then zoom
    into it by cubic interpolation. At most ``max_ls`` evaluations. Returns the loss and
    gradient at the chosen point, ``t`` and the number of evaluations.
    (Lua torch's optim/lswolfe.lua.)
    """
    d_norm = d.abs().max()
    g = g.clone(memory_format=torch.contiguous_format)
    # the initial step
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)

    # -- bracketing: [t_prev, t] holds a point meeting the conditions once one of them fails
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        # not a sufficient decrease, or worse than the previous trial: the point lies between
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone(memory_format=torch.contiguous_format)]
            bracket_gtd = [gtd_prev, gtd_new]
            break

        # both conditions hold at t: done
        if abs(gtd_new) <= -c2 * gtd:
            bracket = [t]
            bracket_f = [f_new]
            bracket_g = [g_new]
            done = True
            break

        # the slope turned positive: a minimum lies between
        if gtd_new >= 0:
            bracket = [t_prev, t]
            bracket_f = [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone(memory_format=torch.contiguous_format)]
            bracket_gtd = [gtd_prev, gtd_new]
            break

        # still going down steeply: extrapolate to a longer step, within [t + 0.01 (t - t_prev), 10 t]
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))

        # next step
        t_prev = tmp
        f_prev = f_new
        g_prev = g_new.clone(memory_format=torch.contiguous_format)
        gtd_prev = gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

    # out of evaluations while bracketing
    if ls_iter == max_ls:
        bracket = [0, t]
        bracket_f = [f, f_new]
        bracket_g = [g, g_new]

    # -- zoom: shrink the bracket around a point that meets both conditions. bracket[low_pos]
    # is its end with the lower loss, bracket[high_pos] the other.
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        # the bracket is too small to matter
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break

        # the minimiser of the cubic through both ends
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])

        # A trial within 10% of the bracket's length from an end makes little progress: the
        # second time in a row (or when it falls at or outside an end), move it to 10% in.
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        # evaluate the trial point
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            # not a sufficient decrease, or not below the low end: it becomes the high end
            bracket[high_pos] = t
            bracket_f[high_pos] = f_new
            bracket_g[high_pos] = g_new.clone(memory_format=torch.contiguous_format)
            bracket_gtd[high_pos] = gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                # the curvature condition holds too: done
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                # the slope points away from the high end: the old low end becomes the high one
                bracket[high_pos] = bracket[low_pos]
                bracket_f[high_pos] = bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]

            # the trial point becomes the low end
            bracket[low_pos] = t
            bracket_f[low_pos] = f_new
            bracket_g[low_pos] = g_new.clone(memory_format=torch.contiguous_format)
            bracket_gtd[low_pos] = gtd_new

    # the best point seen
    t = bracket[low_pos]
    f_new = bracket_f[low_pos]
    g_new = bracket_g[low_pos]
    return f_new, g_new, t, ls_func_evals
# [end marker: strong_wolfe]


class LBFGS(Optimizer):
    r"""L-BFGS: quasi-Newton steps from an inverse-Hessian estimate built from the last
    ``history_size`` pairs (s, y) of parameter changes and gradient changes.

    ``step(closure)`` runs up to ``max_iter`` iterations (and ``max_eval`` calls of
    ``closure``); each picks the direction ``d = -H g`` by the two-loop recursion and a
    step length ``t`` (``lr``, or ``lr * min(1, 1 / sum|g|)`` on the very first iteration),
    refined by a strong-Wolfe line search when ``line_search_fn="strong_wolfe"``. It stops
    early when ``max|g| <= tolerance_grad`` or when the loss or the step change by less than
    ``tolerance_change``. It returns the loss ``closure`` gave at the start.

    One parameter group only. The state (kept under the first parameter) holds the
    history: ``d``, ``t``, ``old_dirs`` (the y's), ``old_stps`` (the s's), ``ro``
    (1 / y.s), ``H_diag``, ``prev_flat_grad``, ``prev_loss``, ``al``, and the counters
    ``func_evals`` and ``n_iter``; so later steps continue the same approximation.
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                        tolerance_change=tolerance_change, history_size=history_size,
                        line_search_fn=line_search_fn)
        super().__init__(params, defaults)

        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    # ---- all parameters as one flat vector ---------------------------------------------

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = sum(p.numel() for p in self._params)
        return self._numel_cache

    def _gather_flat_grad(self):
        """Every parameter's gradient, flattened and concatenated (zeros for a missing one)."""
        views = []
        for p in self._params:
            if p.grad is None:
                view = torch.zeros(p.numel(), dtype=p.dtype, device=p.device)
            else:
                view = p.grad.view(-1)
            views.append(view)
        return torch.cat(views, 0)

    def _add_grad(self, step_size, update):
        """p += step_size * (p's slice of the flat ``update``), for each parameter."""
        offset = 0
        for p in self._params:
            numel = p.numel()
            # view_as, so that the slice has p's shape
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel
        if offset != self._numel():
            raise AssertionError(f"Expected offset {offset} to equal {self._numel()}")

    def _clone_param(self):
        return [p.clone(memory_format=torch.contiguous_format) for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data, strict=True):
            p.copy_(pdata)

    def _directional_evaluate(self, closure, x, t, d):
        """Loss and flat gradient at ``x + t d``; the parameters are put back to ``x`` after."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    # ---- the step ----------------------------------------------------------------------

    @torch.no_grad()
    def step(self, closure):
        """Up to ``max_iter`` L-BFGS iterations; ``closure`` (required) clears the
        gradients, computes the loss, calls ``backward()`` and returns the loss. Returns
        the first loss ``closure`` gave."""
        if len(self.param_groups) != 1:
            raise AssertionError(f"Expected exactly one param_group, but got {len(self.param_groups)}")
        for p in self._params:
            # PyTorch views complex parameters as real pairs (torch.view_as_real); this project has no complex view
            _reject_complex("LBFGS", p)

        # the closure always runs with grad enabled (step itself runs without)
        closure = torch.enable_grad()(closure)

        group = self.param_groups[0]
        lr = _to_scalar(group["lr"])
        max_iter = group["max_iter"]
        max_eval = group["max_eval"]
        tolerance_grad = group["tolerance_grad"]
        tolerance_change = group["tolerance_change"]
        line_search_fn = group["line_search_fn"]
        history_size = group["history_size"]

        # The state is global, but kept under the first parameter so that load_state_dict
        # casts and moves its tensors with that parameter.
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        # loss and gradient at the starting point
        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1

        flat_grad = self._gather_flat_grad()
        opt_cond = flat_grad.abs().max() <= tolerance_grad

        # already at a stationary point
        if opt_cond:
            return orig_loss

        # what the previous step() left
        d = state.get("d")
        t = state.get("t")
        old_dirs = state.get("old_dirs")
        old_stps = state.get("old_stps")
        ro = state.get("ro")
        H_diag = state.get("H_diag")
        prev_flat_grad = state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # ---- the direction -------------------------------------------------------
            # [marker: lbfgs_two_loop]
            if state["n_iter"] == 1:
                # the first iteration ever: steepest descent
                d = flat_grad.neg()
                old_dirs = []
                old_stps = []
                ro = []
                H_diag = 1
            else:
                # the last step s = t d and the gradient change y it caused
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)  # y.s
                if ys > 1e-10:
                    # keep the pair (only with positive curvature, which keeps H positive definite)
                    if len(old_dirs) == history_size:
                        # forget the oldest pair
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)

                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)

                    # the initial inverse Hessian is H_diag * I, scaled as y.s / y.y
                    H_diag = ys / y.dot(y)

                # d = -H g by the two-loop recursion over the stored pairs
                num_old = len(old_dirs)

                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]

                # first loop, newest pair to oldest: q = -g, less each pair's projection
                q = flat_grad.neg()
                for i in range(num_old - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i])

                # apply the initial inverse Hessian, then the second loop, oldest to newest
                d = r = torch.mul(q, H_diag)
                for i in range(num_old):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=al[i] - be_i)
            # [end marker: lbfgs_two_loop]

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone(memory_format=torch.contiguous_format)
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            # ---- the step length ---------------------------------------------------
            # [marker: lbfgs_step_length]
            # the first iteration ever (d = -g) moves the parameters by at most lr in all: t * sum|d| <= lr
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr

            # the slope along d
            gtd = flat_grad.dot(d)  # g.d

            # (almost) flat or uphill along d: stop
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                else:
                    x_init = self._clone_param()

                    def obj_func(x, t, d):
                        return self._directional_evaluate(closure, x, t, d)

                    loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd,
                                                                      max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                # no line search: the fixed step t
                self._add_grad(t, d)
                if n_iter != max_iter:
                    # the loss and gradient at the new point (not after the last iteration:
                    # the next step() computes them anyway)
                    with torch.enable_grad():
                        loss = closure()
                    loss = float(loss)
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            # [end marker: lbfgs_step_length]

            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            # ---- stop? ---------------------------------------------------------------
            if n_iter == max_iter:
                break

            if current_evals >= max_eval:
                break

            # a stationary point
            if opt_cond:
                break

            # no progress: the step or the loss hardly changed
            if d.mul(t).abs().max() <= tolerance_change:
                break

            if abs(loss - prev_loss) < tolerance_change:
                break

        state["d"] = d
        state["t"] = t
        state["old_dirs"] = old_dirs
        state["old_stps"] = old_stps
        state["ro"] = ro
        state["H_diag"] = H_diag
        state["prev_flat_grad"] = prev_flat_grad
        state["prev_loss"] = prev_loss

        return orig_loss
