from workshop_site.causal_md import head_figure

caption = (
    "The induction head on the same sentence. In the second half, its bright cells "
    "fall on the tokens that followed the first copies."
)
print(head_figure("induction", caption))
