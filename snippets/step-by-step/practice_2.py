Q2 = Q.copy()
Q2[2] = [5, 0]
out, w = attention(Q2, K, V, causal=True)
print(w)
