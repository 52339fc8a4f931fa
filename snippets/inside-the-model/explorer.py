# The interactive explorer's mount point; inside.js reads the build's JSON from its data-src.
from attention_workshop.experiment.inside_html import explorer_html

print(explorer_html())
