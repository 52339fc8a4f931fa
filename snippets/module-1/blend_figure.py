# The last word's new row as the weighted sum of every row: step 3, with the page's numbers.
from workshop_site.render import figure

print(
    figure(
        "blend.svg",
        "A table of the sentence's rows on the four axes, each row labelled with its weight "
        "times the word, and under a line the last word's new row, their weighted sum.",
        "<strong>The blend, step 3.</strong> Each row of the sentence times its weight from step 2, added "
        "up axis by axis, is the last word's new row. The stronger a row's fill, the larger "
        "its weight.",
    )
)
