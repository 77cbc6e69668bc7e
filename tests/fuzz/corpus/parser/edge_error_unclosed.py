def f(:
  x = [1, 2
