from attention_workshop.chapters.module_2 import DK_KEYS, DK_TRIALS
from workshop_site.render import figure

print(
    figure(
        "sqrt-dk.svg",
        "Line chart: the mean largest softmax weight against d_k, without scaling "
        "and divided by the square root of d_k.",
        f"Largest weight among {DK_KEYS} random keys, averaged over {DK_TRIALS} random queries, for each d_k.",
    )
)
