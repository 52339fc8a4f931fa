# Every symbol and term of the site, from the package's notation.toml (the build checks the pages against it).
from attention_workshop.build.notation import table

print(table())
