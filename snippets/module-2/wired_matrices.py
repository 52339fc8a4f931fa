# The wired head's two matrices, as the package defines them.
from workshop_site.tables import wired_matrices_table

print(wired_matrices_table())
