import numpy as np

from attention_workshop.handcalc import attend

np.set_printoptions(precision=3, floatmode="fixed", suppress=True)
Q = np.array([[1, 0], [0, 1], [1, 1]], dtype=float)
K = np.array([[1, 0], [0, 1], [1, 1]], dtype=float)
V = np.array([[1, 0], [0, 1], [0.5, 0.5]], dtype=float)

out, w = attend(Q, K, V, causal=True)
print("weights (row = who is looking, column = who is looked at):")
print(w)
print("outputs:")
print(out)
