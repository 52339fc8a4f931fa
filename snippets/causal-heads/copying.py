from attention_workshop.experiment.causal_md import copying_table

print(copying_table())
