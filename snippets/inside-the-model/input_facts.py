# The toy input's make-up, printed from the package (axes, position columns, n_embd; checked in inside.py).
from attention_workshop.inside import input_text

print(input_text())
