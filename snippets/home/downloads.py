# Every download of the site, with its size as this build made it.
from attention_workshop.build.downloads import table

print(table())
