from workshop_site.causal_md import explorer_html

print(explorer_html())
