# Assignment 6, two honest mistakes: log_gaussian drops the constant
# -d/2 log(2 pi) and m_step forgets reg_covar. Questions 1 and 3 score
# zero; the others are graded with reference versions of those two
# functions (11 / 18).
# cell: log_gaussian
def log_gaussian(X, mean, cov):
    L = np.linalg.cholesky(cov)
    u = np.linalg.solve(L, (X - mean).T)
    return -0.5 * np.sum(u**2, axis=0) - np.sum(np.log(np.diag(L)))
# cell: e_step
def e_step(X, weights, means, covariances):
    log_joint = np.column_stack(
        [
            np.log(w) + log_gaussian(X, m, S)
            for w, m, S in zip(weights, means, covariances)
        ]
    )
    log_px = logsumexp(log_joint, axis=1)
    return np.exp(log_joint - log_px[:, None]), float(np.mean(log_px))
# cell: m_step
def m_step(X, resp, reg_covar=1e-6):
    counts = resp.sum(axis=0)
    means = resp.T @ X / counts[:, None]
    covariances = np.array(
        [
            (resp[:, k, None] * (X - means[k])).T @ (X - means[k]) / counts[k]
            for k in range(resp.shape[1])
        ]
    )
    return counts / len(X), means, covariances
# cell: fit_gmm
def fit_gmm(X, n_components, n_iter=200, tol=1e-6, random_state=0):
    rng = np.random.default_rng(random_state)
    means = X[rng.choice(len(X), n_components, replace=False)]
    covariances = np.array([np.cov(X.T)] * n_components)
    weights = np.full(n_components, 1.0 / n_components)
    resp, log_likelihood = e_step(X, weights, means, covariances)
    history = [log_likelihood]
    for _ in range(n_iter):
        weights, means, covariances = m_step(X, resp)
        resp, log_likelihood = e_step(X, weights, means, covariances)
        history.append(log_likelihood)
        if history[-1] - history[-2] < tol:
            break
    return weights, means, covariances, np.array(history)
# cell: assign
def assign(X, weights, means, covariances):
    resp, _ = e_step(X, weights, means, covariances)
    return resp.argmax(axis=1)
