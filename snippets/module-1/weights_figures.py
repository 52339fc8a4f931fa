# The weights of Module 1's attention on both sentences, as heatmaps.
from workshop_site.render import figure

for name, words in (
    ("simple-weights.svg", "river"),
    ("simple-weights-money.svg", "savings"),
):
    print(
        figure(
            name,
            "Heatmap of the weights of attention with nothing learned.",
            f'The weights on "the {words} bank". Each row is a word looking; the stronger the colour, the more weight.',
        )
    )
