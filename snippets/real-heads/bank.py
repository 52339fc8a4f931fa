from attention_workshop.experiment.real_heads_md import bank_figure, bank_table

print(
    bank_figure(
        "bank's cosine across the bank sentences, going in and after each layer."
    )
)
print(bank_table())
