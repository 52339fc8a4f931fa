# Where the toy weights come from (the seed) and the tolerance of the build's step-by-step check.
from attention_workshop.inside import weights_text

print(weights_text())
