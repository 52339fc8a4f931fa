from attention_workshop.build.causal_md import steps_table

print(steps_table())
