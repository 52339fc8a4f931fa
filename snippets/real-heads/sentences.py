# The page's sentences, their number of tokens, and what each was chosen to show.
from attention_workshop.experiment.real_heads_md import sentences_table

print(sentences_table())
