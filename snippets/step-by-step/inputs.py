# The chapter's inputs, from the package: one row of Q, K and V per word.
from attention_workshop.experiment.md_tables import inputs_table

print(inputs_table())
