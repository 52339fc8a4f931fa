# The toy vocabulary, straight from the package's table.
from workshop_site.tables import vocab_table

print(vocab_table())
