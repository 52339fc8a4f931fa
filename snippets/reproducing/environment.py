# The environment the committed capture was made in: its own first lines.
from workshop_site.pages import capture_header

print(capture_header())
