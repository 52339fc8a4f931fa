from attention_workshop.experiment.real_heads_md import head_figure

print(
    head_figure(
        "previous",
        "The previous-token head on sentence 1: every token looks at the one before it.",
    )
)
