# The environment the committed capture was made in: its own first lines.
from attention_workshop.build.pages import capture_header

print(capture_header())
