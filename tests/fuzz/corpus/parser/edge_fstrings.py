name, width, x, d = "n", 10, 3.5, {"k": 1}
a = f"{name!r:>{width}} {{braces}} {x=} {x = :.3f} {d['k']}"
b = f'''multi
{name
 .upper()} line {f"{x:{width}.{2}}"}'''
c = rf"raw \d {x}" f"{(lambda y: y + 1)(2)}" "plain"
e = F"{x!s}" Rf'{x!a:}' f"{'nested'}{x,}"
