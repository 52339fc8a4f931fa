# For each ending, the heads that send "it" most to "animal" and to "street".
from attention_workshop.experiment.real_heads_md import it_table

print(it_table())
