from workshop_site.render import figure

print(
    figure(
        "words.svg",
        "Arrows from zero: river and boat point along water, savings and vault along money, "
        "bank points between them, and the sits at zero.",
        "Six words on two of the four axes, water and money.",
    )
)
