# The toy block's sizes beside GPT-2 small's.
from attention_workshop.experiment.inside_page import sizes_table

print(sizes_table())
