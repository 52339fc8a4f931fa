from workshop_site.causal_md import next_table

print(next_table())
