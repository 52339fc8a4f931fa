import numpy as np


def attention(Q, K, V, causal=True, scaled=True):
    scores = Q @ K.T  # step 1: every query meets every key, (T, T)
    if scaled:
        scores = scores / np.sqrt(K.shape[1])  # step 2: divide by sqrt(d_k)
    if causal:  # step 5: a key after the query is hidden
        future = np.triu(np.ones(scores.shape, dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))  # step 3: softmax,
    weights = e / e.sum(axis=1, keepdims=True)  # one row at a time
    return weights @ V, weights  # step 4: blend the values, (T, d_v)
