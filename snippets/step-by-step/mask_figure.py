from workshop_site.render import figure

print(
    figure(
        "cat-sat-weights.svg",
        "Three bar charts, one per word, of its weights without the mask (hatched) and "
        "with it (solid).",
        "Each word's weights without the mask and with it.",
    )
)
