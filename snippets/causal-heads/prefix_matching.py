from attention_workshop.experiment.causal_md import prefix_figure

caption = (
    "Every head's prefix-matching score on random tokens repeated once, averaged over "
    "the seeds. A larger number is a stronger prefix matcher."
)
print(prefix_figure(caption))
