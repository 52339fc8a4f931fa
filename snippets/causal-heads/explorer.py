from attention_workshop.experiment.causal_md import explorer_html

print(explorer_html())
