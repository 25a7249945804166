# A correct answer to assignment 9 (epsilon-SVR), written differently from
# the solution notebook (loops, another order of the KKT rules): full marks.
# cell: primal
def eps_insensitive(r, epsilon):
    r = np.asarray(r, dtype=float)
    return np.where(np.abs(r) > epsilon, np.abs(r) - epsilon, 0.0)


def primal_objective(beta, b, K, z, C, epsilon):
    residuals = z - (K @ beta + b)
    flatness = 0.5 * float(beta @ (K @ beta))
    return flatness + C * float(np.sum(eps_insensitive(residuals, epsilon)))
# cell: svr_dual
def svr_dual(K, z, C, epsilon):
    m = len(z)
    y = np.ones(2 * m)
    y[m:] = -1.0
    Q = np.empty((2 * m, 2 * m))
    Q[:m, :m] = K
    Q[m:, m:] = K
    Q[:m, m:] = -K
    Q[m:, :m] = -K
    p = np.empty(2 * m)
    p[:m] = epsilon - z
    p[m:] = epsilon + z
    return Q, p, y, C * np.ones(2 * m)
# cell: solve_dual
def solve_dual(Q, p, y, upper, tol=1e-3, max_iter=100_000):
    m = len(p)
    a = np.zeros(m)
    G = p.astype(float)
    steps = 0
    while steps < max_iter:
        i = j = -1
        g_max, g_min = -np.inf, np.inf
        for k in range(m):
            value = -y[k] * G[k]
            can_go_up = a[k] < upper[k] if y[k] == 1 else a[k] > 0
            can_go_down = a[k] > 0 if y[k] == 1 else a[k] < upper[k]
            if can_go_up and value > g_max:
                g_max, i = value, k
            if can_go_down and value < g_min:
                g_min, j = value, k
        if i < 0 or j < 0 or g_max - g_min <= tol:
            break
        eta = Q[i, i] + Q[j, j] - 2 * y[i] * y[j] * Q[i, j]
        limit = min(
            upper[i] - a[i] if y[i] == 1 else a[i],
            a[j] if y[j] == 1 else upper[j] - a[j],
        )
        t = limit if eta <= 0 else min(limit, (g_max - g_min) / eta)
        a[i] += y[i] * t
        a[j] -= y[j] * t
        G = G + t * y[i] * Q[:, i] - t * y[j] * Q[:, j]
        steps += 1
    return a
# cell: coef_and_intercept
def coef_and_intercept(alpha, K, z, C, epsilon):
    m = len(z)
    beta = alpha[:m] - alpha[m:]
    g = z - K @ beta  # z_i - f(x_i) + b
    values, low, high = [], -np.inf, np.inf
    for i in range(m):
        # alpha_i: z_i - f(x_i) = epsilon at b = g_i - epsilon;
        # alpha*_i: f(x_i) - z_i = epsilon at b = g_i + epsilon
        for a_i, edge, upper_edge in (
            (alpha[i], g[i] - epsilon, True),
            (alpha[m + i], g[i] + epsilon, False),
        ):
            if 0 < a_i < C:
                values.append(edge)
            elif (a_i == 0) == upper_edge:  # alpha_i = 0 or alpha*_i = C
                low = max(low, edge)
            else:  # alpha_i = C or alpha*_i = 0
                high = min(high, edge)
    b = np.mean(values) if values else (low + high) / 2
    return beta, float(b)
# cell: tube_position
def tube_position(f, z, epsilon, atol=1e-3):
    out = []
    for f_i, z_i in zip(f, z):
        d = abs(z_i - f_i)
        if d < epsilon - atol:
            out.append("inside")
        elif d > epsilon + atol:
            out.append("outside")
        else:
            out.append("on")
    return np.array(out)
# cell: answer_c_epsilon
A wider tube leaves more points inside it, where beta is zero, so fewer
support vectors; C bounds the coefficients. nu-SVR fixes the fraction.
