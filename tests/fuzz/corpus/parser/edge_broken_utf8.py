# comment with broken utf-8: ä¸ ÿş
x = "ä¸­ÿ"  # €
y = b"ÿ"
"""â”Œâ” box"""
