# One head of a trained model on its own sentence, beside the toy's random ones.
from attention_workshop.experiment.real_heads_md import head_figure

print(
    head_figure(
        "previous",
        "A trained head (all-MiniLM-L6-v2) on its own sentence. More on Real heads.",
    )
)
