from workshop_site.render import figure

print(
    figure(
        "bank-moves.svg",
        "Three arrows on the water and money axes: bank before attention on the line where "
        "water equals money, bank after attention next to river below that line, and next "
        "to savings above it.",
        "bank's row on water and money, before attention and after it in each sentence.",
    )
)
