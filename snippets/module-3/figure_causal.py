from workshop_site.render import figure

print(
    figure(
        "wired-weights-causal.svg",
        "Heatmap of the same head under a causal mask; cells above the diagonal are 0 and hatched.",
        "The same head with the causal mask. Hatched cells are the hidden future.",
    )
)
