# How many heads each sentence puts in each class.
from attention_workshop.experiment.real_heads_md import counts_table

print(counts_table())
