# The pairs of results.log's dot-product section, axis by axis.
from attention_workshop.lessons import dot_table
from attention_workshop.pages import results

print(dot_table(results().data["vocabulary"]["pairs"]))
