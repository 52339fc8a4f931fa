from attention_workshop.pages import figure

print(figure("sqrt-dk.svg", "Line chart: the mean largest softmax weight against d_k, without scaling and divided by the square root of d_k.",
             "Largest weight among 8 random keys, averaged over 400 random queries, for each d_k."))
