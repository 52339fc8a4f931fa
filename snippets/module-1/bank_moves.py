# bank's row before attention, and its output row in each sentence.
from attention_workshop.build.pages import results
from attention_workshop.build.tables import bank_moves_table
from attention_workshop.chapters.module_1 import SIMPLE

print(bank_moves_table(results()[SIMPLE]))
