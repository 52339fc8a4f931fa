# The toy vocabulary, straight from the package's table.
from attention_workshop.lessons import vocab_table

print(vocab_table())
