# The wired head's scores, then the same scores with every later word's set to minus infinity.
from workshop_site.render import figure

print(
    figure(
        "causal-mask.svg",
        "Two grids of the wired head's scores, one row per word looking and one column per "
        "word looked at: first as computed, then with every cell of a later word replaced by "
        "minus infinity.",
        "<strong>The mask acts on the scores.</strong> Above the diagonal (a later word) the score becomes "
        "−∞, before softmax; the other scores stay as they were.",
    )
)
