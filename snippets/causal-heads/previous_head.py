from attention_workshop.experiment.causal_md import causal_head_figure

caption = (
    "The previous-token head on the repeated sentence: its largest weights sit "
    "just left of the diagonal."
)
print(causal_head_figure("previous", caption))
