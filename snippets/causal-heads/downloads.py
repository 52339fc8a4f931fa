from attention_workshop.experiment.causal_md import downloads

print(downloads())
