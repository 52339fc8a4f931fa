# nanoGPT-style CausalSelfAttention.forward with shape comments at toy scale.
from attention_workshop.experiment.inside_page import static_code

print(static_code())
