from workshop_site.causal_md import steps_table

print(steps_table())
