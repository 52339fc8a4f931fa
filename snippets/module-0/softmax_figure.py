from workshop_site.render import figure

print(
    figure(
        "softmax.svg",
        "Four bar charts of softmax weights, one per row of scores.",
        "Softmax on four rows of scores. Each score is under its bar, each weight on it.",
    )
)
