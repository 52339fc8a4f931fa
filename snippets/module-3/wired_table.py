# The unmasked weights as a table: the text alternative of the heatmap above.
from attention_workshop.build.pages import results
from attention_workshop.build.render import matrix_table
from attention_workshop.chapters.module_2 import WIRED_HEAD

r = results()
print(
    matrix_table(
        r[WIRED_HEAD].weights, r.sentence, r.sentence, corner="looking ↓ / looked at →"
    )
)
