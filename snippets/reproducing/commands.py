# The three commands that recreate this build's results.log, with this build's file names.
from attention_workshop.build.downloads import commands

print(commands())
