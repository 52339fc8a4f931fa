# The toy vocabulary, straight from the package's table.
from attention_workshop.experiment.md_tables import vocab_table

print(vocab_table())
