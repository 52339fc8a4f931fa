from attention_workshop.experiment.causal_md import lens_figure

caption = (
    "Each sentence's final guess, read after every layer through the final norm and "
    "the embeddings: its rank among the whole vocabulary, 1 at the top."
)
print(lens_figure(caption))
