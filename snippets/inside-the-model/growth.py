# Score cells per head as the tokens grow: doubling T quadruples the grid (claim inside.doubling_quadruples).
from attention_workshop.experiment.inside_page import growth_table

print(growth_table())
