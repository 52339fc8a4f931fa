# bank's row before attention, and its output row in each sentence.
from attention_workshop.lessons import bank_moves_table
from attention_workshop.pages import results

print(bank_moves_table(results().data["simple"]))
