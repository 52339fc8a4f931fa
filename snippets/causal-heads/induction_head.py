from attention_workshop.experiment.causal_md import causal_head_figure

caption = (
    "The induction head on the same sentence. In the second half, each row of a "
    "repeated token can be read against the token that followed its first copy."
)
print(causal_head_figure("induction", caption))
