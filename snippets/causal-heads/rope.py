from attention_workshop.experiment.causal_md import rope_figure

caption = (
    "The same two words, the key placed further and further back. "
    "Without RoPE the score is one flat line."
)
print(rope_figure(caption))
