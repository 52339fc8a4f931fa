# The pairs of results.log's dot-product section, axis by axis.
from attention_workshop.build.pages import results
from attention_workshop.build.tables import dot_table
from attention_workshop.chapters.module_0 import VOCABULARY

print(dot_table(results()[VOCABULARY].pairs))
