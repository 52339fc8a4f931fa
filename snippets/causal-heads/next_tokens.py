from attention_workshop.build.causal_md import next_table

print(next_table())
