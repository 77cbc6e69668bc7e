def process_item(id): print(f"I'm processing item {id}")

for i in range(5): process_item(i)
def change_id(old_id): return 5-old_id

for i in range(5): process_item(change_id(i))
