# The lines of this build's results.log that may differ on another computer, as the package declares them.
from workshop_site.reproduce import may_differ_table

print(may_differ_table())
