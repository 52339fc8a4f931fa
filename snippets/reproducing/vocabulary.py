# The words the experiment accepts, straight from the toy vocabulary.
from attention_workshop.toy import VOCAB

print(", ".join(f"`{w}`" for w in sorted(VOCAB)))
