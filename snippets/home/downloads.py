# Every download of the site, with its size as this build made it.
from workshop_site.downloads import table

print(table())
