from workshop_site.render import figure

print(
    figure(
        "wired-weights.svg",
        "Heatmap of the wired head's weights on the running sentence; its values follow.",
        "The wired head's weights, no mask: the table Module 3 masks.",
    )
)
