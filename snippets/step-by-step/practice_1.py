out, w = attention(Q, K, V, causal=False)
print(w)
