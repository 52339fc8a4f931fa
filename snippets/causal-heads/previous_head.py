from workshop_site.causal_md import head_figure

caption = (
    "The previous-token head on the repeated sentence: its bright cells sit "
    "just left of the diagonal."
)
print(head_figure("previous", caption))
