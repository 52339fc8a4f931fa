# The two sentences as matrices X: one row per word.
from attention_workshop.toy import SENT_MONEY, SENT_RIVER
from workshop_site.tables import sentence_table

for words in (SENT_RIVER, SENT_MONEY):
    print(f'**"{" ".join(words)}"**\n')
    print(sentence_table(words))
