# The two sentences as matrices X: one row per word.
from attention_workshop.experiment.md_tables import sentence_table
from attention_workshop.toy import SENT_MONEY, SENT_RIVER

for words in (SENT_RIVER, SENT_MONEY):
    print(f'**"{" ".join(words)}"**\n')
    print(sentence_table(words))
