s = 'single' "double" '''triple ' quote''' """triple " dq"""
r = r'\d+\n', R"\\", b'\x00\xff\n' rb'\x' Br"\q", u'unicode' U"x"
esc = "\a\b\f\n\r\t\v\0\12\101\x41\u00e9\U0001F600\\ \' \" \q"
cont = "line one \
line two"
t = ("implicit"
     'concatenation'
     f"{s}")
