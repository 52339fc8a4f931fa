from workshop_site.render import figure

print(
    figure(
        "cat-sat-projections.svg",
        "The three keys as arrows in two dimensions, the query of sat along the diagonal, "
        "and each key's shadow on the query's line.",
        "The keys and the query of \"sat\". A key's shadow on the query's line, times the "
        "query's length, is their dot product.",
    )
)
