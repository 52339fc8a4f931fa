# The interactive explorer's mount point; inside.js reads the build's JSON from its data-src.
from workshop_site.inside_html import explorer_html

print(explorer_html())
