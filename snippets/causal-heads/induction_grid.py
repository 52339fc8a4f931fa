from workshop_site.causal_md import induction_figure

caption = (
    "Every head's induction score on the repeated sentence. A darker cell gives "
    "more weight to the token after the first copy."
)
print(induction_figure(caption))
