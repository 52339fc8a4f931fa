from workshop_site.render import figure

print(
    figure(
        "gpt2-flops.svg",
        "Horizontal bars: the FLOPs of each of the seven steps in one GPT-2 layer at its "
        "full context.",
        "Where one layer's arithmetic goes, at GPT-2's size and full context.",
    )
)
