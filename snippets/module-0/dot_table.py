# The pairs of results.log's dot-product section, axis by axis.
from attention_workshop.chapters.module_0 import VOCABULARY
from attention_workshop.experiment.md_tables import dot_table
from workshop_site.pages import results

print(dot_table(results()[VOCABULARY].pairs))
