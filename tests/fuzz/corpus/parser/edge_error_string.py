s = "unterminated
t = f"{x!q}"
