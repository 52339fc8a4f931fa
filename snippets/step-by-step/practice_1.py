out, w = attend(Q, K, V, causal=False)
print(w)
