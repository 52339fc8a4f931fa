# Every symbol and term of the site, from the package's notation.toml (the build checks the pages against it).
from workshop_site.notation import table

print(table())
