from workshop_site.render import figure

print(
    figure(
        "log-map.svg",
        "A map of results.log: each section as a bar along the log's lines, one row per "
        "section, coloured by the page that quotes it.",
        "Which page quotes which lines of results.log.",
    )
)
