from attention_workshop.build.causal_md import downloads

print(downloads())
