from workshop_site.render import log_excerpt

print(log_excerpt("wired_head"))
