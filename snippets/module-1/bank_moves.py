# bank's row before attention, and its output row in each sentence.
from attention_workshop.chapters.module_1 import SIMPLE
from attention_workshop.experiment.md_tables import bank_moves_table
from workshop_site.pages import results

print(bank_moves_table(results()[SIMPLE]))
