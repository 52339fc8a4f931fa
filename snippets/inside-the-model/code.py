# nanoGPT-style CausalSelfAttention.forward with shape comments at toy scale.
from workshop_site.inside_page import static_code

print(static_code())
