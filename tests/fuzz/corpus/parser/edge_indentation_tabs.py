def f(a,
      b):
	if a:
		return b
	else:
		return a  # tabs only

x = 1 + \
    2
