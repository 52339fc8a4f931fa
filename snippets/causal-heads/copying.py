from workshop_site.causal_md import copying_table

print(copying_table())
