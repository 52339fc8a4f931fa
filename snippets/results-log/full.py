from workshop_site.render import log_page

print(log_page())
