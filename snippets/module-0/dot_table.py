# The pairs of results.log's dot-product section, axis by axis.
from attention_workshop.chapters.module_0 import VOCABULARY
from workshop_site.pages import results
from workshop_site.tables import dot_table

print(dot_table(results()[VOCABULARY].pairs))
