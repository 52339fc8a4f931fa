# The commands that recreate this build's results.log and compare it with the site's, on this system.
from workshop_site.downloads import commands

print(commands("linux"))
