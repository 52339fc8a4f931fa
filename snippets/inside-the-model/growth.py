# Score cells per head as the tokens grow: doubling T quadruples the grid (checked by inside.growth).
from attention_workshop.inside import growth_table

print(growth_table())
