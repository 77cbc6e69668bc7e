// str methods, f-strings and Python's format-spec mini-language.
#include "tests/host/InterpTestUtil.h"

using tilescope::testing::pyError;
using tilescope::testing::pyOut;

TEST(InterpStrings, Replace) { EXPECT_EQ(pyOut("print(' > 1, = 0'.replace(' ', ''), 'aaa'.replace('a', 'b', 2))"), ">1,=0 bba\n"); }
TEST(InterpStrings, SplitWithSeparator) { EXPECT_EQ(pyOut("print('>1,,=0'.split(','), 'a b'.split(' ', 1))"), "['>1', '', '=0'] ['a', 'b']\n"); }
TEST(InterpStrings, SplitOnWhitespace) { EXPECT_EQ(pyOut("print('  a \\t b\\n c  '.split(), ''.split())"), "['a', 'b', 'c'] []\n"); }
TEST(InterpStrings, Strip) { EXPECT_EQ(pyOut("print('[' + '  x  '.strip() + ']', 'xxhixx'.strip('x'), ' a '.lstrip() + '|', ' a '.rstrip() + '|')"), "[x] hi a |  a|\n"); }
TEST(InterpStrings, Join) { EXPECT_EQ(pyOut("print(', '.join(['a', 'b', 'c']), ''.join(str(i) for i in range(3)))"), "a, b, c 012\n"); }
TEST(InterpStrings, StartsEndsWith) { EXPECT_EQ(pyOut("print('kernel.py'.endswith('.py'), 'abc'.startswith(('x', 'a')), 'abc'.startswith('b'))"), "True True False\n"); }
TEST(InterpStrings, UpperLower) { EXPECT_EQ(pyOut("print('Triton'.upper(), 'Triton'.lower())"), "TRITON triton\n"); }
TEST(InterpStrings, IndexingAndSlicing) { EXPECT_EQ(pyOut("s = '>=12'\nprint(s[0], s[1:], s[-1], s[::-1], s[:2])"), "> =12 2 21=> >=\n"); }
TEST(InterpStrings, Utf8IndexingCountsCharacters) { EXPECT_EQ(pyOut("s = 'ä✅x'\nprint(len(s), s[1], s[-1])"), "3 ✅ x\n"); }
TEST(InterpStrings, ConcatRepeatCompare) { EXPECT_EQ(pyOut("print('ab' + 'c', 'ab' * 3, 'a' < 'b', 'x' == 'x')"), "abc ababab True True\n"); }
TEST(InterpStrings, StrFormatMethod) { EXPECT_EQ(pyOut("print('{} + {} = {:>4}'.format(1, 2, 3), '{0}{0}{name}'.format('a', name='b'), '{x[0]}'.format(x=[7]))"), "1 + 2 =    3 aab 7\n"); }
TEST(InterpStrings, PercentFormatting) { EXPECT_EQ(pyOut("print('%d items, %.2f ms, %s, %5s|' % (3, 1.2345, 'ok', 'r'))"), "3 items, 1.23 ms, ok,     r|\n"); }
TEST(InterpStrings, FindCount) { EXPECT_EQ(pyOut("print('banana'.find('an'), 'banana'.count('a'), 'banana'.find('x'))"), "1 3 -1\n"); }
TEST(InterpStrings, Repr) { EXPECT_EQ(pyOut("print(repr('a'), repr(\"it's\"), repr('tab\\t'), repr(''))"), "'a' \"it's\" 'tab\\t' ''\n"); }
TEST(InterpStrings, FStringPrecision) { EXPECT_EQ(pyOut("x = 3.14159\nprint(f'{x:.3f} {x:.0f} {x:10.2f}|')"), "3.142 3       3.14|\n"); }
TEST(InterpStrings, FStringWidthAlign) { EXPECT_EQ(pyOut("n = 42\nprint(f'[{n:>5}] [{n:<5}] [{n:^6}] [{n:05}] [{\"ab\":*^6}]')"), "[   42] [42   ] [  42  ] [00042] [**ab**]\n"); }
TEST(InterpStrings, FStringConversions) { EXPECT_EQ(pyOut("v = 'hi'\nprint(f'{v!r} {v!s} {v}')"), "'hi' hi hi\n"); }
TEST(InterpStrings, FStringSelfDocumenting) { EXPECT_EQ(pyOut("x = 3\nprint(f'{x=} {x * 2=}')"), "x=3 x * 2=6\n"); }
TEST(InterpStrings, FStringNestedSpec) { EXPECT_EQ(pyOut("w = 6\np = 2\nprint(f'{3.14159:{w}.{p}f}|')"), "  3.14|\n"); }
TEST(InterpStrings, FStringBraceEscapes) { EXPECT_EQ(pyOut("print(f'{{x}} {1 + 1}')"), "{x} 2\n"); }
TEST(InterpStrings, FormatScientific) { EXPECT_EQ(pyOut("print(f'{12345.678:e} {0.00012:.2E} {1e-10:.1e}')"), "1.234568e+04 1.20E-04 1.0e-10\n"); }
TEST(InterpStrings, FormatGeneral) { EXPECT_EQ(pyOut("print(f'{1234567.0:g} {0.0001:g} {0.00001:g} {100.0:g} {1.5:.3}')"), "1.23457e+06 0.0001 1e-05 100 1.5\n"); }
TEST(InterpStrings, FormatPercentAndSign) { EXPECT_EQ(pyOut("print(f'{0.256:.1%} {5:+d} {-5:+d} {3.5: .1f}')"), "25.6% +5 -5  3.5\n"); }
TEST(InterpStrings, FormatGrouping) { EXPECT_EQ(pyOut("print(f'{1234567:,} {1234567.891:,.2f} {1000000:_}')"), "1,234,567 1,234,567.89 1_000_000\n"); }
TEST(InterpStrings, FormatBases) { EXPECT_EQ(pyOut("print(f'{255:x} {255:#X} {5:b} {8:#o} {255:#010x}', hex(255), bin(5))"), "ff 0XFF 101 0o10 0x000000ff 0xff 0b101\n"); }
TEST(InterpStrings, FormatNegativeZeroPadding) { EXPECT_EQ(pyOut("print(f'{-3:05d} {-2.5:08.2f}')"), "-0003 -0002.50\n"); }
TEST(InterpStrings, FormatFloatDefaultIsRepr) { EXPECT_EQ(pyOut("print(f'{0.1:} {1e20} {2.0:>6}|')"), "0.1 1e+20    2.0|\n"); }
TEST(InterpStrings, FormatInfNan) { EXPECT_EQ(pyOut("print(f'{float(\"inf\"):.2f} {float(\"-inf\")} {float(\"nan\"):F}')"), "inf -inf NAN\n"); }
TEST(InterpStrings, FormatBoolAndNone) { EXPECT_EQ(pyOut("print(f'{True} {None} {True:>5} {False:d}')"), "True None     1 0\n"); }
TEST(InterpStrings, FormatStringPrecisionTruncates) { EXPECT_EQ(pyOut("print(f'{\"abcdef\":.3} {\"ab\":>4.1}|')"), "abc    a|\n"); }
TEST(InterpStrings, FormatBuiltin) { EXPECT_EQ(pyOut("print(format(0.5, '.2f'), format(7, '03'))"), "0.50 007\n"); }
TEST(InterpStrings, InvalidFormatCodeForStr) { EXPECT_EQ(pyError("print(f'{\"a\":d}')"), "ValueError: Unknown format code 'd' for object of type 'str'"); }
TEST(InterpStrings, InvalidFormatCodeForFloat) { EXPECT_EQ(pyError("print(f'{1.5:d}')"), "ValueError: Unknown format code 'd' for object of type 'float'"); }
TEST(InterpStrings, PrecisionNotAllowedForInt) { EXPECT_EQ(pyError("print(f'{3:.2d}')"), "ValueError: Precision not allowed in integer format specifier"); }
TEST(InterpStrings, JoinNeedsStrings) { EXPECT_EQ(pyError("','.join([1, 2])"), "TypeError: sequence item 0: expected str instance, int found"); }
TEST(InterpStrings, StringIndexOutOfRange) { EXPECT_EQ(pyError("'ab'[5]"), "IndexError: string index out of range"); }
TEST(InterpStrings, StrIntConcatIsTypeError) { EXPECT_EQ(pyError("'a' + 1"), "TypeError: unsupported operand type(s) for +: 'str' and 'int'"); }
TEST(InterpStrings, IntFromBadString) { EXPECT_EQ(pyError("int('1.5x')"), "ValueError: invalid literal for int() with base 10: '1.5x'"); }
