# The last word's query against every key, softmax, then the weighted sum of the values.
from workshop_site.render import figure

print(
    figure(
        "one-query.svg",
        "The last word's query at the top; a table with one row per word: its key, the query "
        "times the key divided by the square root of d_k, and the softmax weight; under it the "
        "weighted sum of the values and the output row.",
        "<strong>One query's path.</strong> The last word's query meets every key; each score is divided "
        "by √<i>d</i><sub>k</sub>, softmax turns the scores into weights, and the weights blend the values "
        "(here each word's own row) into its output. The stronger a weight's fill, the larger it is.",
    )
)
