# The wired head's two matrices, as the package defines them.
from attention_workshop.experiment.md_tables import wired_matrices_table

print(wired_matrices_table())
