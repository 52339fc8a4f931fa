from workshop_site.render import figure

print(
    figure(
        "wired-weights.svg",
        "Heatmap of the wired head's attention weights without a mask; its values follow.",
        "The wired head's weights, no mask. The stronger the colour, the more weight; "
        "every cell also prints its value.",
    )
)
