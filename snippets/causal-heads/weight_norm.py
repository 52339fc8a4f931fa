from attention_workshop.experiment.causal_md import split_table

print(split_table())
