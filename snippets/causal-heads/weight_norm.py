from workshop_site.causal_md import split_table

print(split_table())
