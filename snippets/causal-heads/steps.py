from attention_workshop.experiment.causal_md import steps_table

print(steps_table())
