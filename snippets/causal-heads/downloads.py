from workshop_site.causal_md import downloads

print(downloads())
