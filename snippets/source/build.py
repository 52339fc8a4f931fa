# The build modules the experiment imports, each in its own tab, read from its file.
from attention_workshop.build.source_page import source_tabs

print(source_tabs("build"))
