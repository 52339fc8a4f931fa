# The wired head split into two heads of one channel each, each with its own causal weights.
from workshop_site.render import figure

print(
    figure(
        "heads-split.svg",
        "Two blocks, one per head. Each names the column of Q and K the head takes, lists "
        "the words' queries and keys in that column, and shows the head's own causal weight "
        "grid, masked cells shown as 0.",
        "<strong>One head split in two.</strong> Head 1 takes the topic column of <i>Q</i> and <i>K</i>, head 2 the "
        "place column, so each has <i>d</i><sub>k</sub> = 1 and its own weights (causal, as in GPT-2). This "
        "is the split <code>multi_head_attention</code> makes, on the wired head.",
    )
)
