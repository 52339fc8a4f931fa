from attention_workshop.experiment.causal_md import induction_figure

caption = (
    "Every head's induction score on the repeated sentence. The stronger a cell's colour "
    "(darker in the light scheme, lighter in the dark scheme), the more weight the head gives "
    "to the token after the first copy."
)
print(induction_figure(caption))
