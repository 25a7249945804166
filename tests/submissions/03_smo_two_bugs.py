# Assignment 3, two honest mistakes: pair_step has no guard for
# eta <= 0 (two equal points: a division by zero) and new_threshold takes
# b1 whenever the new alpha_i is in [0, C], bounds included. Questions 2
# and 3 score zero; simplified SMO and the violations (graded with
# reference versions of the steps) and the bounds score 12 / 20.
# cell: bounds
def bounds(alpha_i, alpha_j, y_i, y_j, C):
    """(L, H): where the constraint line leaves the box, in alpha_j."""
    if y_i != y_j:  # alpha_j - alpha_i is fixed
        return max(0.0, alpha_j - alpha_i), min(C, C + alpha_j - alpha_i)
    # alpha_i + alpha_j is fixed
    return max(0.0, alpha_i + alpha_j - C), min(C, alpha_i + alpha_j)
# cell: pair_step
def pair_step(alpha_i, alpha_j, y_i, y_j, E_i, E_j, K_ii, K_jj, K_ij, C):
    """The analytic maximiser of W over (alpha_i, alpha_j), the other
    multipliers fixed."""
    L, H = bounds(alpha_i, alpha_j, y_i, y_j, C)
    eta = K_ii + K_jj - 2.0 * K_ij
    if L >= H:
        return alpha_i, alpha_j
    alpha_j_new = min(max(alpha_j + y_j * (E_i - E_j) / eta, L), H)
    return alpha_i + y_i * y_j * (alpha_j - alpha_j_new), alpha_j_new
# cell: new_threshold
def new_threshold(
    b,
    E_i,
    E_j,
    delta_i,
    delta_j,
    y_i,
    y_j,
    K_ii,
    K_jj,
    K_ij,
    alpha_i_new,
    alpha_j_new,
    C,
):
    """The threshold b after a step, by the handout's rules."""
    b1 = b - E_i - y_i * delta_i * K_ii - y_j * delta_j * K_ij
    b2 = b - E_j - y_j * delta_j * K_jj - y_i * delta_i * K_ij
    if 0 <= alpha_i_new <= C:
        return b1
    if 0 <= alpha_j_new <= C:
        return b2
    return 0.5 * (b1 + b2)
# cell: simplified_smo
def simplified_smo(
    K, y, C, tol=1e-3, max_passes=10, max_sweeps=1000, random_state=0
):
    """The CS229 simplified SMO on a Gram matrix K; returns (alpha, b)."""
    rng = np.random.default_rng(random_state)
    n_points = len(y)
    alpha, b = np.zeros(n_points), 0.0
    passes = sweeps = 0
    while passes < max_passes and sweeps < max_sweeps:
        sweeps += 1
        changed = 0
        for i in range(n_points):
            E_i = K[i] @ (alpha * y) + b - y[i]
            if not (
                (y[i] * E_i < -tol and alpha[i] < C)
                or (y[i] * E_i > tol and alpha[i] > 0)
            ):
                continue
            j = int(rng.integers(n_points - 1))
            j += j >= i
            E_j = K[j] @ (alpha * y) + b - y[j]
            a_i, a_j = pair_step(
                alpha[i],
                alpha[j],
                y[i],
                y[j],
                E_i,
                E_j,
                K[i, i],
                K[j, j],
                K[i, j],
                C,
            )
            if abs(a_j - alpha[j]) < 1e-5:
                continue
            b = new_threshold(
                b,
                E_i,
                E_j,
                a_i - alpha[i],
                a_j - alpha[j],
                y[i],
                y[j],
                K[i, i],
                K[j, j],
                K[i, j],
                a_i,
                a_j,
                C,
            )
            alpha[i], alpha[j] = a_i, a_j
            changed += 1
        passes = passes + 1 if changed == 0 else 0
    return alpha, b
# cell: violations
def violations_by_seed(K, y, C, seeds):
    """The maximal KKT violation of simplified SMO's solution, per seed."""
    violations = []
    for seed in seeds:
        a, _ = simplified_smo(K, y, C, random_state=seed)
        a = np.where(a < 1e-8, 0.0, np.where(a > C - 1e-8, C, a))
        violations.append(max_violation(a, y, C, error_cache(a, K, y)))
    return violations
