# The causal weights as a table: the text alternative of the heatmap above.
from attention_workshop.build.pages import results
from attention_workshop.build.render import matrix_table
from attention_workshop.chapters.module_3 import CAUSAL

r = results()
print(
    matrix_table(
        r[CAUSAL].weights, r.sentence, r.sentence, corner="looking ↓ / looked at →"
    )
)
