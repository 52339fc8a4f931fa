# The unmasked weights as a table: the text alternative of the heatmap above.
from attention_workshop.pages import matrix_table, results

r = results()
print(matrix_table(r.data["wired_head"]["weights"], r.sentence, r.sentence, corner="looking ↓ / looked at →"))
