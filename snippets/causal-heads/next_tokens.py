from attention_workshop.experiment.causal_md import next_table

print(next_table())
