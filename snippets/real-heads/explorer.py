# The interactive grid's mount point; heads.js reads the build's JSON from its data-src.
from attention_workshop.experiment.real_heads_md import explorer_html

print(explorer_html())
