# The maths modules the experiment imports, each in its own tab, read from its file.
from workshop_site.source_page import source_tabs

print(source_tabs("maths"))
