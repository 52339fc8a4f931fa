# bank's row before attention, and its output row in each sentence.
from attention_workshop.chapters.module_1 import SIMPLE
from workshop_site.pages import results
from workshop_site.tables import bank_moves_table

print(bank_moves_table(results()[SIMPLE]))
